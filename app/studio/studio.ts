// The studio's one root: `createStudio` builds and wires every part (cameras, capture, the library and
// overlays, AI, PTZ, the view and the command registry) once; React creates it once and only reads it.
import type { CurrentUser } from "../schemas/auth";
import { aiCommands } from "./ai/ai-commands";
import { AiEngine } from "./ai/ai-engine";
import { alertsApi } from "../lib/api/alerts";
import { localVisionApi } from "../lib/api/local-vision";
import { monitorsApi } from "../lib/api/monitors";
import { peopleCountApi } from "../lib/api/people-count";
import { featureRequestsApi } from "../lib/api/feature-requests";
import { storiesApi } from "../lib/api/stories";
import { webhooksApi } from "../lib/api/webhooks";
import { AlertsController } from "./automation/alerts-controller";
import { MonitorsController } from "./automation/monitors-controller";
import { WebhooksController } from "./automation/webhooks-controller";
import { CameraRoster } from "./cameras/cameras";
import { isIpCamera } from "./cameras/ip-source";
import { WatchController } from "./cameras/watch-controller";
import { CaptureController } from "./capture/capture";
import { CommandRegistry } from "./commands";
import { FeatureRequestController } from "./feature-request";
import { followCommands } from "./ptz/follow-commands";
import { FollowController } from "./ptz/follow-controller";
import { Library } from "./capture/library";
import { SessionViewerController } from "./capture/session-viewer-controller";
import { StoryViewerController } from "./capture/story-viewer-controller";
import type { Notifier } from "./notifier";
import { overlayCommands } from "./overlays/overlay-commands";
import { OverlayController } from "./overlays/overlays";
import { ptzCommands } from "./ptz/ptz-commands";
import { PtzController } from "./ptz/ptz-controller";
import { captureCommands, helpCommand, viewCommands } from "./studio-commands";
import { StudioView } from "./view";

export interface Studio {
  readonly notify: Notifier;
  readonly cameras: CameraRoster;
  /** "Watch with local vision": per IP camera, whether the server watches it and how its pipeline runs. */
  readonly watch: WatchController;
  readonly capture: CaptureController;
  readonly library: Library;
  /** LUT grading, histogram and zebra over the preview (their settings and the LUT library). */
  readonly overlays: OverlayController;
  readonly view: StudioView;
  readonly ai: AiEngine;
  readonly ptz: PtzController;
  /** PTZ auto-tracking: box detection results steering the PTZ camera. */
  readonly follow: FollowController;
  /** The Feature Request dialog's request. */
  readonly featureRequest: FeatureRequestController;
  /** What the story and people-count session viewers show (each reads its story or session when it opens). */
  readonly viewers: Viewers;
  /** The Automate tab: webhook, alerts and monitors (each loads when the tab shows it). */
  readonly automation: Automation;
  readonly commands: CommandRegistry<Studio>;
  /** Told of any change a command's enabled or pressed state may depend on. */
  subscribe(listener: () => void): () => void;
  /** Loads the cameras, library and AI account, and listens for hotkeys on `window`. */
  start(): Promise<void>;
  /** Stops everything for good: a disposed studio cannot start again (make a new one). */
  dispose(): void;
  readonly disposed: boolean;
}

export interface Viewers {
  readonly story: StoryViewerController;
  readonly session: SessionViewerController;
}

export interface Automation {
  readonly webhooks: WebhooksController;
  readonly alerts: AlertsController;
  readonly monitors: MonitorsController;
}

export function createStudio(deps: { notify: Notifier; user: CurrentUser | null }): Studio {
  return new StudioRoot(deps.notify, deps.user);
}

class StudioRoot implements Studio {
  readonly cameras: CameraRoster;
  readonly watch: WatchController;
  readonly library: Library;
  readonly overlays: OverlayController;
  readonly view = new StudioView();
  readonly capture: CaptureController;
  readonly ai: AiEngine;
  readonly ptz: PtzController;
  readonly follow: FollowController;
  readonly featureRequest: FeatureRequestController;
  readonly viewers: Viewers;
  readonly automation: Automation;
  readonly commands: CommandRegistry<Studio> = new CommandRegistry<Studio>(this);
  private unbindHotkeys = () => {};

  constructor(
    readonly notify: Notifier,
    private readonly user: CurrentUser | null,
  ) {
    const cameras = (this.cameras = new CameraRoster(notify));
    this.watch = new WatchController({
      api: localVisionApi,
      notify,
      now: () => Date.now(),
      visible: () => !document.hidden,
      ipCameraIds: () =>
        cameras.store
          .get()
          .cameras.filter(isIpCamera)
          .map((camera) => camera.id),
      onCamerasChanged: (listener) => cameras.store.subscribe(listener),
    });
    const library = (this.library = new Library(notify));
    this.overlays = new OverlayController(notify);
    const capture = (this.capture = new CaptureController({ cameras, library, notify }));
    this.ai = new AiEngine({ cameras, capture, library, watch: this.watch }, notify, user);
    this.ptz = new PtzController({ cameras, view: this.view }, notify);
    this.follow = new FollowController({ detection: this.ai.detection, ptz: this.ptz, watch: this.watch, notify });
    this.featureRequest = new FeatureRequestController(featureRequestsApi, notify);
    this.viewers = { story: new StoryViewerController(storiesApi, notify), session: new SessionViewerController(peopleCountApi, library, notify) };
    this.automation = {
      webhooks: new WebhooksController(webhooksApi, notify),
      alerts: new AlertsController(alertsApi, localVisionApi, notify),
      monitors: new MonitorsController({
        api: monitorsApi,
        notify,
        now: () => Date.now(),
        visible: () => !document.hidden,
        regions: async (cameraId) => {
          const [lines, zones] = await Promise.all([localVisionApi.lines(cameraId), localVisionApi.zones(cameraId)]);
          return { lines: lines.map(({ id, name }) => ({ id, name })), zones: zones.map(({ id, name }) => ({ id, name })) };
        },
      }),
    };
    // Registration order is the help list's order: "?" comes last.
    for (const command of [...viewCommands, ...captureCommands, ...ptzCommands, ...followCommands, ...aiCommands, ...overlayCommands, helpCommand]) this.commands.register(command);
  }

  /** An arrow so it can be handed around unbound (React's useSyncExternalStore keeps it). */
  readonly subscribe = (listener: () => void): (() => void) => {
    const { ai } = this;
    const stores = [
      this.overlays.store,
      this.cameras.store,
      this.capture.store,
      this.view.store,
      this.ptz.store,
      this.follow.store,
      ai.captions.store,
      ai.counting.store,
      ai.scoreboard.store,
      ai.detection.store,
      ai.localVision.store,
      ai.detectionSource,
      ai.autoCapture.store,
      ai.assistant.store,
    ];
    const offs = stores.map((store) => store.subscribe(listener));
    return () => offs.forEach((off) => off());
  };

  async start(): Promise<void> {
    this.unbindHotkeys = bindHotkeys(this.commands);
    // Whether today's free pool is spent, before any AI call is made (the AI tab says so).
    if (!this.user?.hasMoondreamApiKey) void this.ai.account.refresh();
    this.capture.load();
    // The library does not wait for the first webcam to connect.
    await this.cameras.load({ onListed: () => void this.library.loadPhotos() });
  }

  disposed = false;

  dispose(): void {
    this.disposed = true;
    this.unbindHotkeys();
    this.follow.dispose();
    this.automation.monitors.dispose();
    this.watch.dispose();
    this.ai.dispose();
    this.ptz.dispose();
    this.capture.dispose();
    this.overlays.dispose();
    this.cameras.dispose();
  }
}

function bindHotkeys(commands: CommandRegistry<Studio>): () => void {
  if (typeof window === "undefined") return () => {};
  const down = (event: KeyboardEvent) => commands.handleKeyDown(event);
  const up = (event: KeyboardEvent) => commands.handleKeyUp(event);
  window.addEventListener("keydown", down);
  window.addEventListener("keyup", up);
  return () => {
    window.removeEventListener("keydown", down);
    window.removeEventListener("keyup", up);
  };
}
