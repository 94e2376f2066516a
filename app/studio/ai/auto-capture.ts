// Auto-capture on detection (spec §4): while it is on and box detection runs, a result with at least
// one box saves a photo carrying autoCapture, detectionQuery and detectionBoxes — at most once per
// 5000 ms, measured between capture starts, and never two saves at once.
//
// Which frame is saved: the AI frame the boxes were found in is downscaled (1024 px) and encoded at 0.6
// for upload speed, which is not a photo worth keeping. So the photo is a full-resolution capture taken
// the moment the result arrives — one provider round trip (typically well under a second) after the
// analysed frame. The boxes are fractions of the frame, so they stay valid for the larger picture.
import type { Box } from "../../schemas/vision";
import type { Photo } from "../../schemas/photos";
import { createStore } from "../store";
import type { CaptureController } from "../capture/capture";
import type { DetectionController } from "./detection-controller";

export const AUTO_CAPTURE_GAP_MS = 5000;
export const AUTO_CAPTURE_MARK = "framewise:auto-capture";

/** Whether a detection result should be saved now. */
export function shouldAutoCapture(input: { enabled: boolean; boxes: number; lastCaptureAt: number | null; now: number; busy: boolean }): boolean {
  if (!input.enabled || input.boxes < 1 || input.busy) return false;
  return input.lastCaptureAt === null || input.now - input.lastCaptureAt >= AUTO_CAPTURE_GAP_MS;
}

export type AutoCaptureStatus = { monitoring: true; query: string } | { monitoring: false };

/** The Automate tab's status line: monitoring only when auto-capture and box detection are both on. */
export function autoCaptureStatus(enabled: boolean, box: { enabled: boolean; boxQuery: string }): AutoCaptureStatus {
  return enabled && box.enabled && box.boxQuery.trim() ? { monitoring: true, query: box.boxQuery.trim() } : { monitoring: false };
}

export interface AutoCaptureState {
  enabled: boolean;
  /** How many photos auto-capture saved in this visit, and the last one. */
  saved: number;
  lastPhoto: Photo | null;
}

export class AutoCaptureController {
  readonly store = createStore<AutoCaptureState>({ enabled: false, saved: 0, lastPhoto: null });
  private lastCaptureAt: number | null = null;
  private busy = false;
  private readonly off: () => void;

  constructor(
    private readonly capture: Pick<CaptureController, "captureOne">,
    detection: Pick<DetectionController, "onBoxes">,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.off = detection.onBoxes(({ boxes, query }) => void this.handle(boxes, query));
  }

  setEnabled(enabled: boolean): void {
    this.store.set({ enabled });
  }

  private async handle(boxes: Box[], query: string): Promise<void> {
    const now = this.now();
    if (!shouldAutoCapture({ enabled: this.store.get().enabled, boxes: boxes.length, lastCaptureAt: this.lastCaptureAt, now, busy: this.busy })) return;
    this.lastCaptureAt = now;
    this.busy = true;
    // When the capture started, for tests and benchmarks (only the latest is kept in the timeline).
    performance.clearMarks(AUTO_CAPTURE_MARK);
    performance.mark(AUTO_CAPTURE_MARK);
    try {
      const photo = await this.capture.captureOne({ extra: { autoCapture: true, detectionQuery: query, detectionBoxes: boxes } });
      this.store.set((s) => ({ saved: s.saved + 1, lastPhoto: photo }));
    } catch (error) {
      // Log-only like other detection failures (spec §8); the next detection tries again after the gap.
      console.warn("Auto-capture failed:", error instanceof Error ? error.message : error);
    } finally {
      this.busy = false;
    }
  }

  dispose(): void {
    this.off();
  }
}
