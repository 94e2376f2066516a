// People counting (spec §4): a session on the server, then a frame every interval posted to the count
// call, which stores it as a snapshot and returns the session's running stats. Started while "Count People
// Locally" is on, the session is a local one: each interval samples the on-device count with its frame (no call).
import { peopleCountApi } from "../../lib/api/people-count";
import { errorDetail } from "../../lib/api/errors";
import { defaultSessionTitle, type CountSession, type CountSource } from "../../schemas/people-count";
import { JPEG_QUALITY, type GrabbedFrame } from "../frames/frame-grabber";
import type { CameraRoster } from "../cameras/cameras";
import type { Library } from "../capture/library";
import type { Notifier } from "../notifier";
import { createStore, type Store } from "../store";
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
  /** Who counts the running session: Moondream (a call a snapshot) or the on-device count; null while off. */
  source: CountSource | null;
}

/** "Count People Locally" as a local session samples it: on or off, and the confirmed people in view now. */
export interface LocalPeopleCount {
  countingPeople: boolean;
  /** Null before the local count's first frame. */
  people: number | null;
}

/** What people counting needs from the rest of the studio (an interface so tests can drive it). */
export interface CountingHost extends AiLoopHost {
  notify: Notifier;
  settings: { get(): Pick<AiSettings, "countIntervalSeconds" | "countUseRange"> };
  cameras: Pick<CameraRoster, "selectedCamera">;
  library: Pick<Library, "upsertSession">;
  modes: ModesHost;
  /** "Count People Locally": its continuous count of confirmed people is what a local session samples. */
  localVision: { store: Pick<Store<LocalPeopleCount>, "get" | "subscribe"> };
}

export class CountingController {
  readonly store = createStore<CountingState>({ active: false, sessionId: null, analyzing: false, result: null, session: null, source: null });
  private task: RepeatingTask | null = null;
  /** Stops a local session when the local count it samples is switched off. */
  private offLocal: (() => void) | null = null;
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
    // The source is chosen once, at the start: one source per session.
    const source: CountSource = this.ai.localVision.store.get().countingPeople ? "local" : "moondream";
    this.store.set({ active: true, sessionId: null, result: null, session: null, analyzing: false, source });
    const { library } = this.ai;
    const camera = this.ai.cameras.selectedCamera;
    let session: CountSession;
    try {
      session = await peopleCountApi.create({ cameraId: camera?.id ?? null, cameraName: camera?.name ?? null, title: defaultSessionTitle(), source });
    } catch (error) {
      console.warn("People counting could not start:", errorDetail(error, "unknown error"));
      if (generation !== this.generation) return;
      // The spec: a failure to start turns both counting and AI off (the modes decide: not under a story).
      this.store.set({ active: false, source: null });
      // A local session did not turn AI on, so it has nothing of AI's to turn off.
      if (source === "moondream") this.ai.modes.countingFailed();
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
    // Moondream counting turns AI on (spec §4). A local session does not: AI analysis is Moondream's captions, which
    // would go on spending calls after the session; with AI on anyway, the counting overlay still spares the captions.
    if (source === "moondream") this.ai.modes.switched("counting", true);
    if (source === "local") {
      const local = this.ai.localVision.store;
      this.offLocal = local.subscribe(() => {
        if (!local.get().countingPeople) void this.stop();
      });
      if (!local.get().countingPeople) return void this.stop();
    }
    this.task = startRepeatingTask({
      step: (signal, asked) => (source === "local" ? this.sampleLocal(session.id, signal) : this.step(session.id, signal, asked)),
      delayMs: () => this.ai.settings.get().countIntervalSeconds * 1000,
      visibility: this.visibility,
    });
  }

  /** The frame to count on, or null (none yet, or it failed: logged, and this tick is skipped). */
  private async grabCountFrame(): Promise<GrabbedFrame | null> {
    try {
      return await this.ai.grabFrame(JPEG_QUALITY.aiFrame);
    } catch (error) {
      console.warn("Could not take a frame for people counting:", errorDetail(error, "unknown error"));
      return null;
    }
  }

  private async step(sessionId: string, signal: AbortSignal, asked: boolean): Promise<void> {
    const frame = await this.grabCountFrame();
    if (!frame || signal.aborted) return;
    this.store.set({ analyzing: true });
    try {
      const priority = asked ? "interactive" : "loop";
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

  /**
   * One sample of a local session: the on-device count now (waiting for its first frame after a start) and the
   * frame it was counted on, stored as a snapshot. No AI call, so none is noted.
   */
  private async sampleLocal(sessionId: string, signal: AbortSignal): Promise<void> {
    const count = await this.localCount(signal);
    if (count === null || signal.aborted) return;
    const frame = await this.grabCountFrame();
    if (!frame || signal.aborted) return;
    try {
      const { session } = await peopleCountApi.addSnapshot(sessionId, { imageData: frame.dataUrl, count }, signal);
      if (signal.aborted) return;
      this.store.set({ result: { count, min: null, max: null }, session });
      this.ai.library.upsertSession(session);
    } catch (error) {
      // Log-only, as every counting failure (spec §8); the next interval tries again.
      this.ai.failures.report("People counting", error);
    }
  }

  /** The local count of people in view, once the detector has one (null when stopped first). */
  private localCount(signal: AbortSignal): Promise<number | null> {
    const local = this.ai.localVision.store;
    const now = () => (local.get().countingPeople ? local.get().people : null);
    const ready = now();
    if (ready !== null || signal.aborted) return Promise.resolve(signal.aborted ? null : ready);
    return new Promise((resolve) => {
      const done = (value: number | null) => {
        off();
        signal.removeEventListener("abort", aborted);
        resolve(value);
      };
      const aborted = () => done(null);
      const off = local.subscribe(() => {
        const people = now();
        if (people !== null) done(people);
      });
      signal.addEventListener("abort", aborted);
    });
  }

  /** Finishes the session and shows "People Counting Stopped". */
  async stop(options: { quiet?: boolean } = {}): Promise<void> {
    const { active, sessionId } = this.store.get();
    if (!active) return;
    this.generation++;
    this.task?.stop();
    this.task = null;
    this.offLocal?.();
    this.offLocal = null;
    this.store.set({ active: false, sessionId: null, analyzing: false, result: null, session: null, source: null });
    if (!sessionId) return;
    try {
      this.ai.library.upsertSession(await peopleCountApi.finish(sessionId));
      if (!options.quiet) this.ai.notify.toast({ title: "People Counting Stopped", description: "Saved to People Count." });
    } catch (error) {
      this.ai.notify.toast({ title: "Error", description: errorDetail(error, "Failed to stop people counting"), variant: "destructive" });
    }
  }

  /** AI analysis was switched off (a quota stop too): a Moondream session ends with it; a local one makes no calls and goes on. */
  stopWithAi(options: { quiet?: boolean } = {}): Promise<void> {
    return this.store.get().source === "local" ? Promise.resolve() : this.stop(options);
  }

  dispose(): void {
    this.task?.stop();
    this.task = null;
    this.offLocal?.();
    this.offLocal = null;
  }
}
