// The camera assistant (spec §4, §5): settings kept in localStorage "cameraAssistant", a reference
// snapshot (JPEG 0.9), an analysis shown in the preview overlay, and interval mode — every N seconds
// (10–300) while the stream runs, a new snapshot and, about 0.5 s later, its analysis.
import { errorDetail, isAbort } from "../../lib/api/errors";
import { visionApi } from "../../lib/api/vision";
import type { Recommendations } from "../../schemas/vision";
import { JPEG_QUALITY } from "../frames/frame-grabber";
import type { Notifier } from "../notifier";
import { loadJson, saveJson } from "../settings";
import { createStore } from "../store";
import type { CameraRoster } from "../cameras/cameras";
import type { AiAccount } from "./account";
import type { AiFailureNotices } from "./failure-notices";
import { ASSISTANT_STORAGE_KEY, effectiveLook, sanitizeAssistantSettings, stripDataUrl, type AssistantSettings } from "./assistant-advice";
import { startRepeatingTask, type RepeatingTask } from "./repeating-task";

/** Interval mode analyses this long after its snapshot (spec: "about 0.5 s later"). */
export const INTERVAL_ANALYSIS_DELAY_MS = 500;

export interface AssistantState {
  settings: AssistantSettings;
  snapshot: string | null;
  /** The overlay: hidden, analysing, or showing a result. */
  overlay: "hidden" | "analyzing" | "result";
  recommendations: Recommendations | null;
  intervalMode: boolean;
}

export interface AssistantHost {
  cameras: Pick<CameraRoster, "store">;
  notify: Notifier;
  failures: Pick<AiFailureNotices, "report" | "succeeded">;
  /** Told of every AI call so the free-call count in the AI tab stays current. */
  account?: Pick<AiAccount, "noteCall">;
  grabFrame(quality: number): Promise<{ dataUrl: string } | null>;
}

export class AssistantController {
  readonly store = createStore<AssistantState>({
    settings: sanitizeAssistantSettings(loadJson(ASSISTANT_STORAGE_KEY)),
    snapshot: null,
    overlay: "hidden",
    recommendations: null,
    intervalMode: false,
  });
  private interval: RepeatingTask | null = null;
  private analysis: AbortController | null = null;

  constructor(private readonly host: AssistantHost) {}

  updateSettings(patch: Partial<AssistantSettings>): void {
    const settings = sanitizeAssistantSettings({ ...this.store.get().settings, ...patch });
    this.store.set({ settings });
    saveJson(ASSISTANT_STORAGE_KEY, settings);
  }

  private streaming(): boolean {
    const { selectedCameraId, sources } = this.host.cameras.store.get();
    return !!selectedCameraId && sources[selectedCameraId]?.status === "live";
  }

  private async grab(): Promise<string | null> {
    if (!this.streaming()) return null;
    try {
      return (await this.host.grabFrame(JPEG_QUALITY.assistant))?.dataUrl ?? null;
    } catch {
      return null;
    }
  }

  /** 'Capture Snapshot': the reference frame the analysis looks at. */
  async captureSnapshot(): Promise<boolean> {
    const snapshot = await this.grab();
    if (!snapshot) {
      this.host.notify.toast({ title: "No Video", description: "Please start the video stream first", variant: "destructive" });
      return false;
    }
    this.store.set({ snapshot });
    this.host.notify.toast({ title: "Snapshot Captured", description: "Reference frame ready for analysis." });
    return true;
  }

  /** Start / Refresh: analyses the snapshot, with the spec's validation and toasts. */
  async analyze(options: { quiet?: boolean } = {}): Promise<void> {
    const { snapshot, settings } = this.store.get();
    const look = effectiveLook(settings);
    const invalid = !snapshot ? "Please capture a snapshot first" : !look ? "Please specify a target look" : null;
    if (invalid || !snapshot) {
      if (options.quiet) console.warn("Camera assistant:", invalid);
      else this.host.notify.toast({ title: "Analysis Failed", description: invalid ?? "", variant: "destructive" });
      return;
    }
    this.analysis?.abort();
    const controller = new AbortController();
    this.analysis = controller;
    this.store.set({ overlay: "analyzing" });
    try {
      const { recommendations } = await visionApi.assistant(
        // Interval mode's rounds are a loop's; Start / Refresh is a person's and goes ahead of every loop.
        {
          imageBase64: stripDataUrl(snapshot),
          cameraType: settings.cameraType.trim(),
          targetLook: look,
          intent: settings.intent.trim(),
          priority: options.quiet ? "loop" : "interactive",
        },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      this.host.failures.succeeded();
      this.store.set({ overlay: "result", recommendations });
      if (!options.quiet) this.host.notify.toast({ title: "Analysis Complete", description: "Camera recommendations are ready." });
    } catch (error) {
      if (isAbort(error) || controller.signal.aborted) return;
      // Keep the last good advice up in interval mode; otherwise close the "Analyzing" overlay.
      this.store.set((s) => ({ overlay: s.recommendations ? "result" : "hidden" }));
      if (options.quiet) this.host.failures.report("Camera assistant", error);
      else this.host.notify.toast({ title: "Analysis Failed", description: errorDetail(error, "Could not analyze the image"), variant: "destructive" });
    } finally {
      if (this.analysis === controller) this.analysis = null;
      this.host.account?.noteCall();
    }
  }

  dismiss(): void {
    this.analysis?.abort();
    this.analysis = null;
    this.store.set({ overlay: "hidden" });
  }

  /** Interval mode: a snapshot every N seconds while streaming, analysed ~0.5 s later (failures log-only, no toast per round). */
  setIntervalMode(on: boolean): void {
    this.store.set({ intervalMode: on });
    this.interval?.stop();
    this.interval = null;
    if (!on) return;
    this.interval = startRepeatingTask({
      immediate: false,
      delayMs: () => this.store.get().settings.intervalSeconds * 1000,
      step: async (signal) => {
        const snapshot = await this.grab();
        if (!snapshot || signal.aborted) return;
        this.store.set({ snapshot });
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_ANALYSIS_DELAY_MS));
        if (signal.aborted) return;
        await this.analyze({ quiet: true });
      },
    });
  }

  dispose(): void {
    this.interval?.stop();
    this.analysis?.abort();
  }
}
