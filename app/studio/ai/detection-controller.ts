// Point and box detection on the live picture. One of the two runs at a time (enabling one disables the
// other, spec §4), only while its object text is non-blank, on the shared repeating loop with AI frames
// at quality 0.6. Results are kept with the camera they belong to; they are cleared when detection
// stops, fails (spec §8: log-only failures clear detection results) or the camera changes, so stale
// boxes are never drawn over a different picture.
import { visionApi } from "../../lib/api/vision";
import type { Box, Point } from "../../schemas/vision";
import { JPEG_QUALITY } from "../frames/frame-grabber";
import type { Notifier } from "../notifier";
import { loadJson, saveJson } from "../settings";
import { createStore } from "../store";
import type { CameraRoster } from "../cameras/cameras";
import type { AiAccount } from "./account";
import { isSkippedTick, type AiFailureNotices } from "./failure-notices";
import { startRepeatingTask, type PageVisibility, type RepeatingTask } from "./repeating-task";
import {
  BOX_DETECTION_STORAGE_KEY,
  DEFAULT_POINT_SETTINGS,
  sanitizeBoxSettings,
  sanitizePointSettings,
  type BoxDetectionSettings,
  type PointDetectionSettings,
} from "./detection-settings";
import { detectionSwitch, type DetectionKind } from "./modes";

export type { DetectionKind };

const ROUND_MARKS = ["framewise:grab", "framewise:encoded", "framewise:detected", "framewise:boxes-drawn"];

export interface DetectionResults {
  kind: DetectionKind;
  cameraId: string | null;
  /** The object text the results answer (the box label). */
  query: string;
  boxes: Box[];
  points: Point[];
  /** performance.now() when the frame they were found in was taken. */
  frameAt: number;
}

export interface DetectionState {
  box: BoxDetectionSettings;
  point: PointDetectionSettings;
  results: DetectionResults | null;
}

/** What a detection loop needs from the rest of the studio (an interface so tests can drive it). */
export interface DetectionHost {
  cameras: Pick<CameraRoster, "store">;
  notify: Notifier;
  failures: Pick<AiFailureNotices, "report" | "succeeded">;
  /** Told of every AI call so the free-call count in the AI tab stays current. */
  account?: Pick<AiAccount, "noteCall">;
  grabFrame(quality: number): Promise<{ dataUrl: string } | null>;
}

export type BoxesListener = (event: { boxes: Box[]; query: string; cameraId: string | null }) => void;

/** Which loop should run for these settings: the enabled one, and only with a non-blank object. */
export function activeDetection(state: Pick<DetectionState, "box" | "point">): DetectionKind | null {
  if (state.box.enabled && state.box.boxQuery.trim()) return "box";
  if (state.point.enabled && state.point.object.trim()) return "point";
  return null;
}

export class DetectionController {
  readonly store = createStore<DetectionState>({
    box: sanitizeBoxSettings(loadJson(BOX_DETECTION_STORAGE_KEY)),
    point: DEFAULT_POINT_SETTINGS,
    results: null,
  });
  private task: RepeatingTask | null = null;
  private running: DetectionKind | null = null;
  private readonly boxListeners = new Set<BoxesListener>();
  private readonly offs: Array<() => void> = [];

  constructor(
    private readonly host: DetectionHost,
    private readonly visibility?: PageVisibility,
  ) {
    this.offs.push(this.store.subscribe(() => this.sync()));
    let cameraId = host.cameras.store.get().selectedCameraId;
    this.offs.push(
      host.cameras.store.subscribe(() => {
        const next = host.cameras.store.get().selectedCameraId;
        if (next === cameraId) return;
        cameraId = next;
        this.clearResults();
        this.task?.poke();
      }),
    );
    this.sync();
  }

  // ---- settings --------------------------------------------------------------------------------

  /** Box detection on or off; turning it on turns point detection off (see `detectionSwitch`). */
  setBoxEnabled(enabled: boolean): void {
    this.setEnabled("box", enabled);
  }

  /** Point detection on or off; turning it on turns box detection off. */
  setPointEnabled(enabled: boolean): void {
    this.setEnabled("point", enabled);
  }

  private setEnabled(kind: DetectionKind, on: boolean): void {
    this.store.set((s) => {
      const next = detectionSwitch(kind, on, { box: s.box.enabled, point: s.point.enabled });
      return {
        box: next.box === s.box.enabled ? s.box : { ...s.box, enabled: next.box },
        point: next.point === s.point.enabled ? s.point : { ...s.point, enabled: next.point },
      };
    });
  }

  /** Box settings other than enabled/query (those have their own rules); out-of-range values are repaired. */
  updateBox(patch: Partial<Omit<BoxDetectionSettings, "enabled" | "boxQuery">>): void {
    this.store.set((s) => ({ box: sanitizeBoxSettings({ ...s.box, ...patch }) }));
  }

  updatePoint(patch: Partial<Omit<PointDetectionSettings, "enabled">>): void {
    const before = this.store.get().point;
    const point = sanitizePointSettings({ ...before, ...patch });
    this.store.set({ point });
    // Typing changes the object per keystroke: drop the old answers, and let the next round (not one
    // call per key) ask about the new text.
    if (point.object !== before.object && this.running === "point") this.clearResults();
  }

  /** Commits an edited box query (Apply); blank is refused. Returns whether it was applied. */
  applyBoxQuery(query: string): boolean {
    const trimmed = query.trim();
    if (!trimmed) return false;
    this.store.set((s) => ({ box: sanitizeBoxSettings({ ...s.box, boxQuery: trimmed }) }));
    this.clearResults();
    this.task?.poke();
    this.host.notify.toast({ title: "Detection Updated", description: `Now detecting: ${this.store.get().box.boxQuery}` });
    return true;
  }

  /** 'Save Settings for Next Time': the box settings to localStorage (not with a blank query). */
  saveBoxSettings(): boolean {
    const box = this.store.get().box;
    if (!box.boxQuery.trim()) return false;
    saveJson(BOX_DETECTION_STORAGE_KEY, box);
    this.host.notify.toast({ title: "Settings Saved", description: "Box detection settings will be used next time." });
    return true;
  }

  /** Runs a detection round now, as the person's call (Follow was just switched on and needs a fresh picture). */
  detectNow(): void {
    this.task?.poke();
  }

  /** Called with every box detection result that found at least one box (auto-capture listens). */
  onBoxes(listener: BoxesListener): () => void {
    this.boxListeners.add(listener);
    return () => this.boxListeners.delete(listener);
  }

  dispose(): void {
    this.offs.forEach((off) => off());
    this.stopLoop();
    this.boxListeners.clear();
  }

  // ---- the loop --------------------------------------------------------------------------------

  private clearResults(): void {
    this.store.set({ results: null });
  }

  private stopLoop(): void {
    this.task?.stop();
    this.task = null;
    this.running = null;
  }

  /**
   * Starts, restarts or stops the loop to match the settings. The loop is settled before the results are
   * cleared: clearing notifies the store's listeners, this method among them, and a nested call must find
   * the loop already matching. (It once found none running and started a second loop that nothing ever
   * stopped, so after box → point → off the points came back on the next round.)
   */
  private sync(): void {
    const wanted = activeDetection(this.store.get());
    if (wanted === this.running) return;
    this.stopLoop();
    this.running = wanted;
    if (wanted) {
      this.task = startRepeatingTask({
        step: (signal, asked) => this.step(wanted, signal, asked),
        delayMs: () => (wanted === "box" ? this.store.get().box.boxDetectionInterval : this.store.get().point.interval),
        visibility: this.visibility,
      });
    }
    this.clearResults();
  }

  private async step(kind: DetectionKind, signal: AbortSignal, asked: boolean): Promise<void> {
    const cameraId = this.host.cameras.store.get().selectedCameraId;
    const settings = this.store.get();
    const query = kind === "box" ? settings.box.boxQuery.trim() : settings.point.object.trim();
    // Phase marks for the benchmark (bench/studio-ai.ts): grab → encoded → detected → boxes-drawn. Only
    // the last round's are kept in the timeline (observers still see every one), so a studio left running
    // through a long broadcast doesn't pile up entries.
    for (const name of ROUND_MARKS) performance.clearMarks(name);
    const frameAt = performance.now();
    performance.mark("framewise:grab");
    let frame: { dataUrl: string } | null;
    try {
      frame = await this.host.grabFrame(JPEG_QUALITY.aiFrame);
    } catch {
      frame = null; // metadata not loaded yet: nothing to detect on this round
    }
    if (signal.aborted) return;
    if (!frame) return this.clearResults();
    performance.mark("framewise:encoded");
    try {
      let boxes: Box[] = [];
      let points: Point[] = [];
      if (kind === "box") {
        const priority = asked ? "interactive" : "loop";
        const body = { imageData: frame.dataUrl, object: query, maxObjects: settings.box.maxBoxes, confidenceThreshold: settings.box.boxConfidenceThreshold, priority } as const;
        boxes = (await visionApi.detect(body, signal)).boxes.slice(0, settings.box.maxBoxes);
      } else {
        points = (await visionApi.point(frame.dataUrl, query, signal, asked ? "interactive" : "loop")).points;
      }
      if (signal.aborted) return;
      performance.mark("framewise:detected");
      this.host.failures.succeeded();
      // A camera switch or a new query while the call ran makes this answer stale.
      const now = this.store.get();
      const currentQuery = kind === "box" ? now.box.boxQuery.trim() : now.point.object.trim();
      if (this.host.cameras.store.get().selectedCameraId !== cameraId || currentQuery !== query) return;
      this.store.set({ results: { kind, cameraId, query, boxes, points, frameAt } });
      if (kind === "box" && boxes.length) for (const listener of this.boxListeners) listener({ boxes, query, cameraId });
    } catch (error) {
      // A skipped tick (the key was busy) is no failure: the last boxes stay until the next round.
      if (signal.aborted || isSkippedTick(error)) return;
      this.clearResults();
      this.host.failures.report(kind === "box" ? "Box detection" : "Point detection", error);
    } finally {
      this.host.account?.noteCall();
    }
  }
}
