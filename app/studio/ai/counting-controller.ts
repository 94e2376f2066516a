// People counting (spec §4): a session on the server, then a frame every interval posted to the count
// call, which stores it as a snapshot and returns the session's running stats.
import { peopleCountApi } from "../../lib/api/people-count";
import { errorDetail } from "../../lib/api/errors";
import { defaultSessionTitle, type CountSession } from "../../schemas/people-count";
import { JPEG_QUALITY, type GrabbedFrame } from "../frame-grabber";
import type { CameraRoster } from "../cameras";
import type { Library } from "../library";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import type { AiSettings } from "./ai-settings";
import type { AiLoopHost } from "./loop-host";
import type { ModesHost } from "./modes";
import { startRepeatingTask, type PageVisibility, type RepeatingTask } from "./repeating-task";

export interface CountResult {
  count: number;
  min: number | null;
  max: number | null;
}

export interface CountingState {
  /** The switch (on from the moment it is pressed, while the session is being created). */
  active: boolean;
  sessionId: string | null;
  analyzing: boolean;
  result: CountResult | null;
  session: CountSession | null;
}

/** What people counting needs from the rest of the studio (an interface so tests can drive it). */
export interface CountingHost extends AiLoopHost {
  notify: Notifier;
  settings: { get(): Pick<AiSettings, "countIntervalSeconds" | "countUseRange"> };
  cameras: Pick<CameraRoster, "selectedCamera">;
  library: Pick<Library, "upsertSession">;
  modes: ModesHost;
}

export class CountingController {
  readonly store = createStore<CountingState>({ active: false, sessionId: null, analyzing: false, result: null, session: null });
  private task: RepeatingTask | null = null;
  private generation = 0;

  constructor(
    private readonly ai: CountingHost,
    private readonly visibility?: PageVisibility,
  ) {}

  isOn(): boolean {
    return this.store.get().active;
  }

  async start(): Promise<void> {
    if (this.store.get().active) return;
    const generation = ++this.generation;
    this.store.set({ active: true, sessionId: null, result: null, session: null, analyzing: false });
    const { library } = this.ai;
    const camera = this.ai.cameras.selectedCamera;
    let session: CountSession;
    try {
      session = await peopleCountApi.create({ cameraId: camera?.id ?? null, cameraName: camera?.name ?? null, title: defaultSessionTitle() });
    } catch (error) {
      console.warn("People counting could not start:", errorDetail(error, "unknown error"));
      if (generation !== this.generation) return;
      // The spec: a failure to start turns both counting and AI off (the modes decide: not under a story).
      this.store.set({ active: false });
      this.ai.modes.countingFailed();
      this.ai.notify.toast({ title: "Error", description: "Failed to start people counting session.", variant: "destructive" });
      return;
    }
    if (generation !== this.generation) {
      await peopleCountApi.finish(session.id).then(
        (s) => library.upsertSession(s),
        () => {},
      );
      return;
    }
    library.upsertSession(session);
    this.store.set({ sessionId: session.id, session });
    this.ai.modes.switched("counting", true);
    this.task = startRepeatingTask({
      step: (signal, first) => this.step(session.id, signal, first),
      delayMs: () => this.ai.settings.get().countIntervalSeconds * 1000,
      visibility: this.visibility,
    });
  }

  private async step(sessionId: string, signal: AbortSignal, first: boolean): Promise<void> {
    let frame: GrabbedFrame | null;
    try {
      frame = await this.ai.grabFrame(JPEG_QUALITY.aiFrame);
    } catch (error) {
      console.warn("Could not take a frame for people counting:", errorDetail(error, "unknown error"));
      return;
    }
    if (!frame || signal.aborted) return;
    this.store.set({ analyzing: true });
    try {
      const priority = first ? "interactive" : "loop";
      const answer = await peopleCountApi.count({ imageData: frame.dataUrl, sessionId, useRange: this.ai.settings.get().countUseRange, priority }, signal);
      this.ai.failures.succeeded();
      if (signal.aborted) return;
      this.store.set((s) => ({ result: { count: answer.count, min: answer.countMin, max: answer.countMax }, session: answer.session ?? s.session }));
      if (answer.session) this.ai.library.upsertSession(answer.session);
    } catch (error) {
      this.ai.failures.report("People counting", error);
    } finally {
      this.store.set({ analyzing: false });
      this.ai.account.noteCall();
    }
  }

  /** Finishes the session and shows "People Counting Stopped". */
  async stop(options: { quiet?: boolean } = {}): Promise<void> {
    const { active, sessionId } = this.store.get();
    if (!active) return;
    this.generation++;
    this.task?.stop();
    this.task = null;
    this.store.set({ active: false, sessionId: null, analyzing: false, result: null, session: null });
    if (!sessionId) return;
    try {
      this.ai.library.upsertSession(await peopleCountApi.finish(sessionId));
      if (!options.quiet) this.ai.notify.toast({ title: "People Counting Stopped", description: "Saved to People Count." });
    } catch (error) {
      this.ai.notify.toast({ title: "Error", description: errorDetail(error, "Failed to stop people counting"), variant: "destructive" });
    }
  }

  dispose(): void {
    this.task?.stop();
    this.task = null;
  }
}
