// Scoreboard mode: reads the scoreboard in the picture every interval (frames at the scoreboard's JPEG
// quality). The server keeps the last reading as the user's public live feed; the preview shows it too.
import { errorDetail } from "../../lib/api/errors";
import { visionApi } from "../../lib/api/vision";
import type { Scoreboard, Sport } from "../../schemas/vision";
import { JPEG_QUALITY, type GrabbedFrame } from "../frames/frame-grabber";
import { createStore } from "../store";
import type { AiSettings } from "./ai-settings";
import type { AiLoopHost } from "./loop-host";
import { startRepeatingTask, type PageVisibility, type RepeatingTask } from "./repeating-task";

export interface ScoreboardState {
  enabled: boolean;
  analyzing: boolean;
  /** The last reading with anything in it (a blurred frame does not blank the overlay). */
  reading: { scoreboard: Scoreboard; sport: Sport } | null;
}

/** What scoreboard mode needs from the rest of the studio (an interface so tests can drive it). */
export interface ScoreboardHost extends AiLoopHost {
  settings: { get(): Pick<AiSettings, "scoreboardIntervalSeconds" | "sport"> };
}

export class ScoreboardController {
  readonly store = createStore<ScoreboardState>({ enabled: false, analyzing: false, reading: null });
  private task: RepeatingTask | null = null;

  constructor(
    private readonly ai: ScoreboardHost,
    private readonly visibility?: PageVisibility,
  ) {}

  setEnabled(on: boolean): void {
    if (!on) {
      this.task?.stop();
      this.task = null;
      this.store.set({ enabled: false, analyzing: false, reading: null });
      return;
    }
    if (this.task) return;
    this.store.set({ enabled: true });
    this.task = startRepeatingTask({
      step: (signal, asked) => this.step(signal, asked),
      delayMs: () => this.ai.settings.get().scoreboardIntervalSeconds * 1000,
      visibility: this.visibility,
    });
  }

  /** Reads now (the sport changed). */
  poke(): void {
    this.task?.poke();
  }

  private async step(signal: AbortSignal, asked: boolean): Promise<void> {
    let frame: GrabbedFrame | null;
    try {
      frame = await this.ai.grabFrame(JPEG_QUALITY.scoreboard);
    } catch (error) {
      console.warn("Could not take a frame for the scoreboard:", errorDetail(error, "unknown error"));
      return;
    }
    if (!frame || signal.aborted) return;
    const sport = this.ai.settings.get().sport;
    this.store.set({ analyzing: true });
    try {
      const { scoreboard } = await visionApi.scoreboard(frame.dataUrl, sport, signal, asked ? "interactive" : "loop");
      this.ai.failures.succeeded();
      if (signal.aborted) return;
      if (Object.values(scoreboard).some((value) => value !== null)) this.store.set({ reading: { scoreboard, sport } });
    } catch (error) {
      this.ai.failures.report("Scoreboard", error);
    } finally {
      this.store.set({ analyzing: false });
      this.ai.account.noteCall();
    }
  }

  dispose(): void {
    this.task?.stop();
    this.task = null;
  }
}
