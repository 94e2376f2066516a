// Timer hooks behind the home page animations: counting up at a fixed pace, and playing a schedule of states.
import { useEffect, useState } from "react";

/** Counts from 0 to `total`, one step every `intervalMs`, while `running`. */
export function useCounter(total: number, running: boolean, intervalMs: number): number {
  const [count, setCount] = useState(0);
  const done = count >= total;
  useEffect(() => {
    if (!running || done) return;
    // One interval rather than a timer per step, so the pace never drifts with render time.
    const timer = setInterval(() => setCount((value) => Math.min(value + 1, total)), intervalMs);
    return () => clearInterval(timer);
  }, [running, done, total, intervalMs]);
  return count;
}

/** Plays `steps` once `running` turns true: each state is applied `at` milliseconds after the start. */
export function useSchedule<S>(steps: ReadonlyArray<{ at: number; state: S }>, running: boolean, initial: S): S {
  const [state, setState] = useState(initial);
  useEffect(() => {
    if (!running) return;
    const timers = steps.map((step) => setTimeout(() => setState(step.state), step.at));
    return () => timers.forEach(clearTimeout);
  }, [steps, running]);
  return state;
}

/** Classes for content that animation reveals later: hidden from view and from assistive technology until shown. */
export function stagedClass(shown: boolean): string {
  return shown ? "" : "invisible opacity-0";
}
