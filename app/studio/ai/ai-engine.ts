// The studio's AI: one object owning every AI loop (captions and story, people counting, scoreboard,
// point and box detection, auto-capture, the camera assistant) and what they share — frames from the
// preview, the vision calls, and failure notices. Framework-free like StudioEngine; components read its
// stores through `useAi()`.
import { AI_FRAME_LONG_EDGE, type GrabbedFrame } from "../frame-grabber";
import type { Notifier } from "../notifier";
import type { StudioEngine } from "../studio-engine";
import { AssistantController } from "./assistant-controller";
import { AutoCaptureController } from "./auto-capture";
import { DetectionController } from "./detection-controller";
import { AiFailureNotices } from "./failure-notices";

export class AiEngine {
  readonly failures: AiFailureNotices;
  readonly detection: DetectionController;
  readonly autoCapture: AutoCaptureController;
  readonly assistant: AssistantController;
  /** Long edge AI frames are downscaled to (never upscaled). */
  frameLongEdge = AI_FRAME_LONG_EDGE;

  constructor(
    readonly studio: StudioEngine,
    readonly notify: Notifier,
  ) {
    this.failures = new AiFailureNotices(notify);
    this.detection = new DetectionController(this);
    this.autoCapture = new AutoCaptureController(studio, this.detection);
    this.assistant = new AssistantController(this);
  }

  /** The selected camera's current picture, downscaled for AI, at the given JPEG quality; null when there is none. */
  grabFrame(quality: number): Promise<GrabbedFrame | null> {
    return this.studio.grabPreviewFrame({ quality, maxLongEdge: this.frameLongEdge });
  }

  dispose(): void {
    this.detection.dispose();
    this.autoCapture.dispose();
    this.assistant.dispose();
  }
}
