// The studio's AI: one object owning every AI loop (captions and story, people counting, scoreboard,
// point and box detection, auto-capture, the camera assistant) and what they share — frames from the
// preview, the vision calls, and failure notices. Framework-free like StudioEngine; components read its
// stores through `useAi()`.
import type { CurrentUser } from "../../schemas/auth";
import { AI_FRAME_LONG_EDGE, type GrabbedFrame } from "../frame-grabber";
import type { Notifier } from "../notifier";
import type { StudioEngine } from "../studio-engine";
import { AiAccount } from "./account";
import { AiSettingsStore } from "./ai-settings";
import { CaptionController } from "./caption-controller";
import { CountingController } from "./counting-controller";
import { AssistantController } from "./assistant-controller";
import { AutoCaptureController } from "./auto-capture";
import { DetectionController } from "./detection-controller";
import { AiFailureNotices } from "./failure-notices";
import { ScoreboardController } from "./scoreboard-controller";

export class AiEngine {
  readonly failures: AiFailureNotices;
  /** The AI tab's choices (intervals, speeds, sport, range mode), kept in localStorage. */
  readonly settings = new AiSettingsStore();
  /** The signed-in user's key status and free-call usage. */
  readonly account: AiAccount;
  /** "Enable AI analysis": the caption loop and story mode. */
  readonly captions: CaptionController;
  readonly counting: CountingController;
  readonly scoreboard: ScoreboardController;
  readonly detection: DetectionController;
  readonly autoCapture: AutoCaptureController;
  readonly assistant: AssistantController;
  /** Long edge AI frames are downscaled to (never upscaled). */
  frameLongEdge = AI_FRAME_LONG_EDGE;

  constructor(
    readonly studio: StudioEngine,
    readonly notify: Notifier,
    user: CurrentUser | null = null,
  ) {
    this.failures = new AiFailureNotices(notify);
    // A new key may fix what blocked AI: let its failures be shown afresh.
    this.account = new AiAccount(user, notify, () => this.failures.succeeded());
    this.captions = new CaptionController(this);
    this.counting = new CountingController(this);
    this.scoreboard = new ScoreboardController(this);
    this.detection = new DetectionController(this);
    this.autoCapture = new AutoCaptureController(studio, this.detection);
    this.assistant = new AssistantController(this);
  }

  /** The selected camera's current picture, downscaled for AI, at the given JPEG quality; null when there is none. */
  grabFrame(quality: number): Promise<GrabbedFrame | null> {
    return this.studio.grabPreviewFrame({ quality, maxLongEdge: this.frameLongEdge });
  }

  dispose(): void {
    this.captions.dispose();
    this.counting.dispose();
    this.scoreboard.dispose();
    this.account.dispose();
    this.detection.dispose();
    this.autoCapture.dispose();
    this.assistant.dispose();
  }
}
