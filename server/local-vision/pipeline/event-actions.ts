// What a line or zone does when it fires on the server's pipeline, besides counting: the studio's event actions
// (app/studio/local-vision/event-actions.ts) done on the server. "Capture a photo" saves the camera's full-resolution
// picture of the moment (the server-side capture: the kept GOP, the snapshot URL or one decoded frame, decision 0011),
// with the event's box; "describe with Moondream" asks the rule's question about that picture as the camera's owner
// (their key or the shared free calls, paced with the studio's calls), one call at a time per camera: the only cloud
// call of local vision. A failure leaves the event without its photo or description; the count and webhook stand.
import type { Line, Zone } from "#app/schemas/local-vision";
import { eventBox, eventSummary } from "#app/studio/local-vision/event-actions";
import type { LocalVisionEvent } from "#app/studio/local-vision/events";
import type { DB } from "#db/index";
import type { Logger } from "pino";
import { ownerSession } from "../../accounts/service";
import type { CameraSource } from "../../cameras/source";
import type { LiveStreams } from "../../cameras/stream/live-streams";
import { cameraFrame } from "../../images/frame";
import { createPhoto } from "../../photos/service";
import type { BlobStore } from "../../storage/blob-store";
import { query, type Vision } from "../../vision/service";

export interface EventExtras {
  photoId?: string;
  description?: string;
}

export interface EventActionParts {
  db: DB;
  streams: Pick<LiveStreams, "snapshot">;
  blobs: BlobStore;
  vision: Vision;
  log: Logger;
}

/** The camera's event actions: `forEvent` says what an event waits for, null when its line or zone asks nothing. */
export function createEventActions(parts: EventActionParts, source: CameraSource) {
  const { db, log } = parts;
  /** This camera's describe calls, one after another. */
  let describing: Promise<unknown> = Promise.resolve();

  async function run(event: LocalVisionEvent, rule: Line | Zone): Promise<EventExtras> {
    const picture = await parts.streams.snapshot(source);
    const frame = cameraFrame(picture);
    let description: string | undefined;
    if (rule.describePrompt) {
      const question = rule.describePrompt;
      const asked = describing.then(async () => {
        const session = await ownerSession(db, source.userId);
        if (!session) return undefined;
        const { answer } = await query(db, parts.vision, { session, frame, input: { question, priority: "loop" }, feature: "event_description" });
        return answer;
      });
      describing = asked.catch(() => undefined);
      description = await asked.catch((error: unknown) => {
        log.warn({ err: error, cameraId: source.cameraId }, "could not describe a local-vision event with Moondream; it is recorded without a description");
        return undefined;
      });
    }
    if (!rule.capturePhoto) return { description };
    const photo = await createPhoto(db, parts.blobs, source.userId, {
      cameraId: source.cameraId,
      frame,
      videoWidth: frame.width,
      videoHeight: frame.height,
      captureMode: "single",
      autoCapture: true,
      visionEvent: true,
      detectionQuery: eventSummary(event, rule.name),
      detectionBoxes: [eventBox(event)],
      description: description ?? null,
    });
    return { photoId: photo.id, description };
  }

  return {
    forEvent(event: LocalVisionEvent, rules: { lines: readonly Line[]; zones: readonly Zone[] }): Promise<EventExtras> | null {
      const rule = event.type === "line.crossed" ? rules.lines.find((l) => l.id === event.lineId) : rules.zones.find((z) => z.id === event.zoneId);
      if (!rule || (!rule.capturePhoto && !rule.describePrompt)) return null;
      return run(event, rule).catch((error: unknown) => {
        log.warn({ err: error, cameraId: source.cameraId }, "could not take a local-vision event's photo; it is recorded without one");
        return {};
      });
    },
  };
}
