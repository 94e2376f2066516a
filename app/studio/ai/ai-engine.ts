// The studio's AI: one object owning every AI loop (captions and story, people counting, scoreboard,
// point and box detection, local detection, auto-capture, the camera assistant) and what they share — frames from the
// preview, the vision calls, and failure notices. Framework-free; made by `createStudio`, and components
// read its stores through `useAi()`. Which modes run together is decided in ./modes, not here.
import type { CurrentUser } from "../../schemas/auth";
import { FREE_POOL_USED_UP, FREE_SHARED_CALLS, MOONDREAM_KEYS_URL, SHARED_QUOTA_USED_UP, VISION_PROBLEM } from "../../schemas/vision";
import { AI_FRAME_LONG_EDGE, type GrabbedFrame } from "../frames/frame-grabber";
import type { CameraRoster } from "../cameras/cameras";
import type { CaptureController } from "../capture/capture";
import type { Library } from "../capture/library";
import type { Notifier } from "../notifier";
import { AiAccount } from "./account";
import { CallUsage } from "./call-usage";
import { AiSettingsStore } from "./ai-settings";
import { CaptionController } from "./caption-controller";
import { CountingController } from "./counting-controller";
import { AssistantController } from "./assistant-controller";
import { AutoCaptureController } from "./auto-capture";
import { activeDetection, DetectionController } from "./detection-controller";
import { AiFailureNotices } from "./failure-notices";
import { freeCallMilestone, loopCallsPerMinute, type RunningLoops } from "./free-calls";
import { AiModes, linkDetectionSources } from "./modes";
import { LocalVisionController } from "../local-vision/local-vision-controller";
import { browserThumbnailer } from "../local-vision/thumbnails";
import { RegionsController } from "../local-vision/regions-controller";
import { CountsController } from "../local-vision/counts-controller";
import { LocalVisionPrefsStore, type DetectionSource } from "../local-vision/local-vision-prefs";
import { localVisionApi } from "../../lib/api/local-vision";
import { localDetectorApi } from "../../lib/api/local-detector";
import { BUILT_IN_DETECTOR } from "../local-vision/detector-types";
import type { EventReporter } from "../local-vision/event-reporter";
import { apiRules, createLocalEvents } from "../local-vision/local-events";
import { createStore } from "../store";
import type { WatchController } from "../cameras/watch-controller";
import { ScoreboardController } from "./scoreboard-controller";

/** What the AI needs from the rest of the studio. */
export interface AiStudioHost {
  cameras: CameraRoster;
  capture: CaptureController;
  library: Library;
  /** Which IP cameras the server watches with local vision: local vision follows the server's scene for them. */
  watch?: Pick<WatchController, "store">;
}

/** Long edge of the frames handed to the local detector: it works at 512², so more pixels only cost the copy. */
const LOCAL_FRAME_LONG_EDGE = 640;

/** Moondream's detection counts as on while box or point detection is switched on. */
function activeDetectionOn(detection: DetectionController): boolean {
  const { box, point } = detection.store.get();
  return box.enabled || point.enabled;
}

export class AiEngine {
  readonly failures: AiFailureNotices;
  /** The AI tab's choices (intervals, speeds, sport, range mode), kept in localStorage. */
  readonly settings = new AiSettingsStore();
  /** The signed-in user's key status and free-call usage. */
  readonly account: AiAccount;
  /** The user's Moondream calls per feature, for the AI tab's "AI calls" panel. */
  readonly callUsage = new CallUsage();
  /** "Enable AI analysis": the caption loop and story mode. */
  readonly captions: CaptionController;
  readonly counting: CountingController;
  readonly scoreboard: ScoreboardController;
  readonly detection: DetectionController;
  readonly autoCapture: AutoCaptureController;
  readonly assistant: AssistantController;
  /** Local detection: the on-device detector and tracker on the preview (no key, no calls). */
  readonly localVision: LocalVisionController;
  /** The selected camera's zones and lines (drawn on the preview, counted by local vision's scene). */
  readonly regions: RegionsController;
  /** Local vision's line and zone events on their way to the server, with their photos and descriptions. */
  readonly localEvents: EventReporter;
  /** The selected camera's counts per line and zone: stored today and so on, plus what this tab counted not yet stored. */
  readonly counts: CountsController;
  /** Local vision's choices kept in this browser: the source per camera, track ids on the boxes. */
  readonly localVisionPrefs = new LocalVisionPrefsStore();
  /** The Detections tab's source choice (see `linkDetectionSources`: one source runs at a time), remembered per camera. */
  readonly detectionSource = createStore<{ source: DetectionSource }>({ source: "moondream" });
  /** The caption family's rules (captions, story, counting), applied to the controllers above. */
  readonly modes = new AiModes();
  readonly cameras: CameraRoster;
  readonly capture: CaptureController;
  readonly library: Library;
  /** Long edge AI frames are downscaled to (never upscaled). */
  frameLongEdge = AI_FRAME_LONG_EDGE;
  /** Set once the loops were stopped for spent free calls, so that is said once; a saved key clears it. */
  private quotaStop: "user" | "pool" | null = null;
  private readonly unlinkSources: () => void;
  private readonly offCameraSource: () => void;

  constructor(
    studio: AiStudioHost,
    readonly notify: Notifier,
    user: CurrentUser | null = null,
  ) {
    this.cameras = studio.cameras;
    this.capture = studio.capture;
    this.library = studio.library;
    this.failures = new AiFailureNotices(notify);
    // A new key may fix what blocked AI: let its failures be shown afresh.
    this.account = new AiAccount(user, notify, () => {
      this.quotaStop = null;
      this.failures.succeeded();
    });
    this.captions = new CaptionController(this);
    this.scoreboard = new ScoreboardController(this);
    this.detection = new DetectionController(this);
    this.autoCapture = new AutoCaptureController(studio.capture, this.detection);
    this.assistant = new AssistantController(this);
    this.localVision = new LocalVisionController({
      cameras: studio.cameras,
      grabBitmap: () => studio.capture.grabPreviewBitmap(LOCAL_FRAME_LONG_EDGE),
      nextFrame: () => new Promise((resolve) => requestAnimationFrame(() => resolve())),
      now: () => performance.now(),
      thumbnailer: browserThumbnailer,
      // The deployment's model, as an administrator chose it (anonymous visitors and failures get the built-in).
      detectorChoice: () => (user ? localDetectorApi.get() : Promise.resolve(BUILT_IN_DETECTOR)),
      // An IP camera the server watches: its tracks, counts and occupancy come from the server's pipeline (issue 30).
      serverScenes: studio.watch && {
        watched: (cameraId) => studio.watch!.store.get().watches[cameraId]?.enabled ?? false,
        subscribe: (listener) => studio.watch!.store.subscribe(listener),
        open: (cameraId, onScene) => localVisionApi.followWatchLive(cameraId, onScene),
      },
    });
    this.counting = new CountingController(this);
    this.regions = new RegionsController({
      cameras: studio.cameras,
      localVision: this.localVision,
      notify,
      api: localVisionApi,
      afterReset: (id) => this.counts.forget(id),
    });
    this.localEvents = createLocalEvents({
      localVision: this.localVision,
      cameras: studio.cameras,
      capture: studio.capture,
      grabFrame: (quality) => this.grabFrame(quality),
      failures: this.failures,
      account: this.account,
      notify,
      // The regions controller's copy when it has loaded this camera's (current as the user edits them), else the API's.
      rulesFor: (cameraId) => {
        const loaded = this.regions.store.get().byCamera[cameraId];
        return loaded ? Promise.resolve(loaded) : apiRules(cameraId);
      },
    });
    this.counts = new CountsController({
      cameras: studio.cameras,
      regions: this.regions,
      reporter: this.localEvents,
      api: { counts: (cameraId) => localVisionApi.counts(cameraId) },
      now: () => Date.now(),
      visible: () => document.visibilityState === "visible",
    });
    this.showRememberedSource();
    this.offCameraSource = studio.cameras.store.subscribe(() => this.showRememberedSource());
    this.unlinkSources = linkDetectionSources(
      {
        local: { isOn: () => this.localVision.isOn(), off: () => this.localVision.setEnabled(false), subscribe: this.localVision.store.subscribe },
        moondream: { isOn: () => activeDetectionOn(this.detection), off: () => this.stopMoondreamDetection(), subscribe: this.detection.store.subscribe },
      },
      (source) => this.setSource(source),
    );
    this.modes.connect({
      captions: this.captions,
      story: { isOn: () => this.captions.isStoryOn(), stopStory: (options) => this.captions.stopStory(options) },
      counting: { isOn: () => this.counting.isOn(), stop: (options) => this.counting.stopWithAi(options) },
    });
    this.account.onCall = () => this.callUsage.noteCall();
    this.failures.onQuotaSpent = (type) => this.stopForQuota(type === VISION_PROBLEM.freePoolUsedUp ? "pool" : "user");
    this.account.onUsage = ({ before, after, hasKey, poolExhausted }) => {
      if (hasKey) return;
      const milestone = freeCallMilestone(before, after);
      if (milestone === "used-up" || (after >= FREE_SHARED_CALLS && this.loopsRunning())) return this.stopForQuota("user");
      if (poolExhausted && this.loopsRunning()) return this.stopForQuota("pool");
      if (milestone === "warning") {
        this.notify.toast({
          title: `${after} of ${FREE_SHARED_CALLS} free AI calls used`,
          description: `The AI loops spend about ${this.callsPerMinute()} calls a minute. Add your own free Moondream API key in AI settings before the free calls run out.`,
          link: { label: "Get a free key at moondream.ai", href: MOONDREAM_KEYS_URL },
        });
      }
    };
  }

  /** The Detections tab's source choice: choosing one stops the other if it runs. */
  chooseDetectionSource(source: DetectionSource): void {
    this.setSource(source);
    if (source === "moondream") this.localVision.setEnabled(false);
    else this.stopMoondreamDetection();
  }

  /** Shows a source and remembers it for the selected camera. */
  private setSource(source: DetectionSource): void {
    this.detectionSource.set({ source });
    const cameraId = this.cameras.store.get().selectedCameraId;
    if (cameraId) this.localVisionPrefs.rememberSource(cameraId, source);
  }

  /** The selected camera's remembered source, unless a source is running (that one stays, and is shown). */
  private showRememberedSource(): void {
    const cameraId = this.cameras.store.get().selectedCameraId;
    const remembered = cameraId ? this.localVisionPrefs.sourceFor(cameraId) : undefined;
    if (!remembered || this.localVision.isOn() || activeDetectionOn(this.detection)) return;
    this.detectionSource.set({ source: remembered });
  }

  private stopMoondreamDetection(): void {
    const detection = this.detection.store.get();
    if (detection.box.enabled) this.detection.setBoxEnabled(false);
    if (detection.point.enabled) this.detection.setPointEnabled(false);
  }

  /** Which loops run now, for the calls-per-minute figure. */
  runningLoops(): RunningLoops {
    const captions = this.captions.store.get();
    const detection = this.detection.store.get();
    const wanted = activeDetection(detection);
    const assistant = this.assistant.store.get();
    return {
      captions: captions.enabled,
      storyMode: Boolean(captions.storyId),
      counting: this.counting.store.get().active,
      countingLocal: this.counting.store.get().source === "local",
      scoreboard: this.scoreboard.store.get().enabled,
      detectionIntervalMs: wanted === "box" ? detection.box.boxDetectionInterval : wanted === "point" ? detection.point.interval : null,
      assistantIntervalSeconds: assistant.intervalMode ? assistant.settings.intervalSeconds : null,
    };
  }

  /** Calls per minute the running loops will spend. */
  callsPerMinute(): number {
    return loopCallsPerMinute(this.runningLoops(), this.settings.get());
  }

  private loopsRunning(): boolean {
    return this.callsPerMinute() > 0;
  }

  /**
   * The free calls (or today's pool) are spent: every loop stops, quietly, and one message says what
   * happened and what to do. Calls made by a person after this still get their own answer.
   */
  private stopForQuota(kind: "user" | "pool"): void {
    if (this.account.store.get().user?.hasMoondreamApiKey || this.quotaStop) return;
    this.quotaStop = kind;
    this.captions.setEnabled(false, { quiet: true });
    this.scoreboard.setEnabled(false);
    this.stopMoondreamDetection();
    if (this.assistant.store.get().intervalMode) this.assistant.setIntervalMode(false);
    this.notify.toast({
      title: kind === "pool" ? "Free AI calls used up for today" : "Free AI calls used up",
      description: `${kind === "pool" ? FREE_POOL_USED_UP : SHARED_QUOTA_USED_UP} The AI loops were stopped.`,
      variant: "destructive",
      link: { label: "Get a free key at moondream.ai", href: MOONDREAM_KEYS_URL },
    });
  }

  /** The selected camera's current picture, downscaled for AI, at the given JPEG quality; null when there is none. */
  grabFrame(quality: number): Promise<GrabbedFrame | null> {
    return this.capture.grabPreviewFrame({ quality, maxLongEdge: this.frameLongEdge });
  }

  dispose(): void {
    this.captions.dispose();
    this.counting.dispose();
    this.scoreboard.dispose();
    this.account.dispose();
    this.callUsage.dispose();
    this.detection.dispose();
    this.autoCapture.dispose();
    this.assistant.dispose();
    this.unlinkSources();
    this.offCameraSource();
    this.counts.dispose();
    this.regions.dispose();
    this.localEvents.dispose();
    this.localVision.dispose();
  }
}
