// Runs a burst or timelapse: N captures (or endless) at a fixed interval, never two at once, stoppable.
// Timers are injected so tests can drive it with fake time.

export interface CapturePlan {
  /** Number of photos; null for an endless timelapse. */
  count: number | null;
  intervalMs: number;
}

export interface CaptureProgress {
  taken: number;
  total: number | null;
  running: boolean;
  error: string | null;
}

export interface SchedulerDeps {
  capture: () => Promise<void>;
  onProgress: (progress: CaptureProgress) => void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  now?: () => number;
}

export interface RunningCapture {
  stop(): void;
  done: Promise<CaptureProgress>;
}

/**
 * Starts captures on a fixed grid (start + k × interval) so slow saves don't stretch the interval; a
 * capture that overruns its slot simply delays the next one (never two in flight).
 */
export function runCapturePlan(plan: CapturePlan, deps: SchedulerDeps): RunningCapture {
  const setTimer = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearTimer = deps.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>));
  const now = deps.now ?? (() => performance.now());
  const progress: CaptureProgress = { taken: 0, total: plan.count, running: true, error: null };
  let timer: unknown;
  let stopped = false;
  let finish!: (p: CaptureProgress) => void;
  const done = new Promise<CaptureProgress>((resolve) => (finish = resolve));
  const started = now();

  const end = (error: string | null = null) => {
    if (!progress.running) return;
    progress.running = false;
    progress.error = error;
    deps.onProgress({ ...progress });
    finish({ ...progress });
  };

  const tick = async () => {
    if (stopped) return;
    try {
      await deps.capture();
    } catch (error) {
      end(error instanceof Error ? error.message : String(error));
      return;
    }
    progress.taken += 1;
    deps.onProgress({ ...progress });
    if (stopped) return end();
    if (plan.count !== null && progress.taken >= plan.count) return end();
    const nextAt = started + progress.taken * plan.intervalMs;
    timer = setTimer(() => void tick(), Math.max(0, nextAt - now()));
  };

  deps.onProgress({ ...progress });
  void tick();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimer(timer);
      end();
    },
    done,
  };
}
