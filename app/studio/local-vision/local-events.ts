// Local vision's events wired to the studio: the reporter (./event-reporter.ts) fed by the controller's events,
// posting through the API, with each rule's photo (the capture controller's full-resolution grab) and
// "describe with Moondream" (POST /api/moondream/query on the AI frame) made by ./event-actions.ts.
import { localVisionApi } from "../../lib/api/local-vision";
import { visionApi } from "../../lib/api/vision";
import type { CameraRoster } from "../cameras/cameras";
import type { CaptureController } from "../capture/capture";
import { JPEG_QUALITY, type GrabbedFrame } from "../frames/frame-grabber";
import type { Notifier } from "../notifier";
import { cachedRules, EventActions, type CallFailures, type RulesFor } from "./event-actions";
import { EventReporter } from "./event-reporter";
import type { LocalVisionController } from "./local-vision-controller";

export interface LocalEventsHost {
  localVision: Pick<LocalVisionController, "onEvents" | "onTracks">;
  cameras: Pick<CameraRoster, "selectedCamera">;
  capture: Pick<CaptureController, "grabPhotoFrame" | "savePhoto">;
  grabFrame(quality: number): Promise<GrabbedFrame | null>;
  failures: CallFailures;
  /** The AI account, told of each Moondream call made (its free-call and usage counts are reread). */
  account: { noteCall(): void };
  notify: Notifier;
  /** Where the lines' and zones' rules come from; by default the API, cached a few seconds. */
  rulesFor?: RulesFor;
}

/** The camera's lines and zones as the API has them (names and event actions). */
export const apiRules: RulesFor = async (cameraId) => {
  const [lines, zones] = await Promise.all([localVisionApi.lines(cameraId), localVisionApi.zones(cameraId)]);
  return { lines, zones };
};

export function createLocalEvents(host: LocalEventsHost): EventReporter {
  const shown = (cameraId: string) => host.cameras.selectedCamera?.id === cameraId;
  const actions = new EventActions({
    rulesFor: host.rulesFor ?? cachedRules(apiRules),
    grabPhoto: async (cameraId) => {
      if (!shown(cameraId)) return null;
      const { frame, camera } = await host.capture.grabPhotoFrame();
      return { save: (extra) => host.capture.savePhoto(frame, { camera, extra }) };
    },
    grabAiFrame: async (cameraId) => (shown(cameraId) ? host.grabFrame(JPEG_QUALITY.aiFrame) : null),
    // A person's rule asked for it: it waits its turn at the key rather than being skipped like a loop call.
    describe: async (imageData, question) => {
      try {
        return (await visionApi.query({ imageData, question, priority: "interactive" })).answer;
      } finally {
        host.account.noteCall();
      }
    },
    failures: host.failures,
  });
  return new EventReporter({
    onEvents: (listener) => host.localVision.onEvents(listener),
    onTracks: (listener) => host.localVision.onTracks(listener),
    post: (cameraId, batch, options) => localVisionApi.postEvents(cameraId, batch, options),
    notify: host.notify,
    timeOrigin: performance.timeOrigin,
    actions: actions.forFrame,
  });
}
