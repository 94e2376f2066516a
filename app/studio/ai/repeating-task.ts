// The one loop every AI feature runs on (captions, story, counting, scoreboard, detection, assistant):
// a step runs, then the next is scheduled after a delay, so two requests of one loop are never in
// flight together however slow the provider is. Stopping aborts the step in flight and drops its
// result; while the page is hidden no new step starts (the camera isn't watched and calls cost quota).
// Timers and page visibility are injected so tests drive the loop with fake time.

export interface PageVisibility {
  isHidden(): boolean;
  /** Calls back whenever visibility changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export const documentVisibility: PageVisibility = {
  isHidden: () => typeof document !== "undefined" && document.visibilityState === "hidden",
  onChange(listener) {
    if (typeof document === "undefined") return () => {};
    document.addEventListener("visibilitychange", listener);
    return () => document.removeEventListener("visibilitychange", listener);
  },
};

export interface RepeatingTaskOptions {
  /**
   * One step. It receives a signal aborted when the loop stops; it may return the delay before the
   * next step (story mode times the next caption from this one's length), else `delayMs()` is used.
   * `asked` is true for a step a person asked for: the one right after the loop started (they just switched
   * the feature on) and one a poke() brought forward (they changed what it looks at), so its call is theirs
   * (priority "interactive"); the steps the delay brings are the loop's own ("loop").
   */
  step: (signal: AbortSignal, asked: boolean) => Promise<number | void>;
  /** Delay between the end of one step and the start of the next, read fresh each time (settings change live). */
  delayMs: () => number;
  /** Start with a step right away (true) or after the first delay. */
  immediate?: boolean;
  visibility?: PageVisibility;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export interface RepeatingTask {
  /** Runs the next step now (or as soon as the step in flight ends) as one a person asked for, e.g. after a settings change. */
  poke(): void;
  stop(): void;
  readonly stopped: boolean;
}

export function startRepeatingTask(options: RepeatingTaskOptions): RepeatingTask {
  const setTimer = options.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearTimer = options.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>));
  const visibility = options.visibility ?? documentVisibility;
  const controller = new AbortController();
  let timer: unknown = null;
  let inFlight = false;
  /** A step is due but was held back (page hidden, or a poke while one ran). */
  let due = false;
  let stopped = false;
  /** The next step is one a person asked for (see `step`). */
  let asked = true;

  const schedule = (ms: number) => {
    clearTimer(timer);
    timer = setTimer(
      () => {
        timer = null;
        run();
      },
      Math.max(0, ms),
    );
  };

  const run = () => {
    if (stopped) return;
    if (inFlight || visibility.isHidden()) {
      due = true;
      return;
    }
    due = false;
    inFlight = true;
    let next: number | void = undefined;
    const byPerson = asked;
    asked = false;
    options
      .step(controller.signal, byPerson)
      .then(
        (value) => (next = value),
        // A step reports its own failures; the loop's job is only to keep going.
        () => {},
      )
      .finally(() => {
        inFlight = false;
        if (stopped) return;
        if (due) return run();
        schedule(typeof next === "number" && Number.isFinite(next) ? next : options.delayMs());
      });
  };

  const offVisibility = visibility.onChange(() => {
    if (!visibility.isHidden() && due && !inFlight) run();
  });

  if (options.immediate ?? true) run();
  else schedule(options.delayMs());

  return {
    poke() {
      if (stopped) return;
      asked = true;
      clearTimer(timer);
      timer = null;
      run();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimer(timer);
      offVisibility();
      controller.abort();
    },
    get stopped() {
      return stopped;
    },
  };
}
