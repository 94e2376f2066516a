// The AI loop: never two steps in flight, delay counted from the end of a step, step-chosen delays,
// clean stop (aborts, no further steps), and no new steps while the page is hidden.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startRepeatingTask, type PageVisibility, type RepeatingTask } from "./repeating-task";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function fakeVisibility() {
  let hidden = false;
  const listeners = new Set<() => void>();
  const visibility: PageVisibility = {
    isHidden: () => hidden,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    visibility,
    set(value: boolean) {
      hidden = value;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
}

function harness(stepMs: number) {
  const starts: number[] = [];
  const signals: AbortSignal[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const step = async (signal: AbortSignal) => {
    starts.push(Date.now());
    signals.push(signal);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (stepMs) await new Promise((resolve) => setTimeout(resolve, stepMs));
    inFlight -= 1;
  };
  return { starts, signals, step, maxInFlight: () => maxInFlight };
}

describe("startRepeatingTask", () => {
  let task: RepeatingTask | null = null;
  afterEach(() => task?.stop());

  it("waits the delay after each step ends, so a slow provider never gets two requests at once", async () => {
    const h = harness(3000);
    const v = fakeVisibility();
    task = startRepeatingTask({ step: h.step, delayMs: () => 2000, visibility: v.visibility });
    await vi.advanceTimersByTimeAsync(15_000);
    const t0 = h.starts[0]!;
    // A step takes 3 s and the delay is 2 s: steps start 5 s apart.
    expect(h.starts.map((t) => t - t0)).toEqual([0, 5000, 10_000, 15_000]);
    expect(h.maxInFlight()).toBe(1);
  });

  it("uses the delay a step returns (story timing) and the setting otherwise", async () => {
    const starts: number[] = [];
    const delays = [4500, undefined];
    let call = 0;
    task = startRepeatingTask({
      step: async () => {
        starts.push(Date.now());
        return delays[call++ % 2];
      },
      delayMs: () => 1000,
      visibility: fakeVisibility().visibility,
    });
    await vi.advanceTimersByTimeAsync(7000);
    const t0 = starts[0]!;
    expect(starts.map((t) => t - t0)).toEqual([0, 4500, 5500]);
  });

  it("reads the delay fresh, so a new interval applies from the next step", async () => {
    const h = harness(0);
    let delay = 1000;
    task = startRepeatingTask({ step: h.step, delayMs: () => delay, visibility: fakeVisibility().visibility });
    await vi.advanceTimersByTimeAsync(2000);
    delay = 5000;
    await vi.advanceTimersByTimeAsync(11_000);
    const t0 = h.starts[0]!;
    // The wait already scheduled at 2000 keeps its 1 s; every wait after it is 5 s.
    expect(h.starts.map((t) => t - t0)).toEqual([0, 1000, 2000, 3000, 8000, 13_000]);
  });

  it("keeps going after a failed step", async () => {
    let calls = 0;
    task = startRepeatingTask({
      step: async () => {
        calls += 1;
        throw new Error("provider down");
      },
      delayMs: () => 1000,
      visibility: fakeVisibility().visibility,
    });
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toBe(4);
  });

  it("stop aborts the step in flight and starts no more", async () => {
    const h = harness(3000);
    const v = fakeVisibility();
    task = startRepeatingTask({ step: h.step, delayMs: () => 1000, visibility: v.visibility });
    await vi.advanceTimersByTimeAsync(1000);
    task.stop();
    expect(h.signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.starts).toHaveLength(1);
    expect(v.listenerCount()).toBe(0);
    expect(task.stopped).toBe(true);
  });

  it("starts nothing while the page is hidden and resumes at once when it is shown", async () => {
    const h = harness(0);
    const v = fakeVisibility();
    task = startRepeatingTask({ step: h.step, delayMs: () => 1000, visibility: v.visibility });
    await vi.advanceTimersByTimeAsync(500);
    v.set(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.starts).toHaveLength(1);
    v.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.starts).toHaveLength(2);
    expect(h.starts[1]! - h.starts[0]!).toBe(30_500);
  });

  it("poke runs a step now, or right after the one in flight, never alongside it", async () => {
    const h = harness(1000);
    task = startRepeatingTask({ step: h.step, delayMs: () => 10_000, visibility: fakeVisibility().visibility });
    await vi.advanceTimersByTimeAsync(500);
    task.poke(); // during the first step: queued behind it
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.starts.map((t) => t - h.starts[0]!)).toEqual([0, 1000]);
    await vi.advanceTimersByTimeAsync(2000); // at 3500: the second step ended at 2000, next due at 12 000
    task.poke();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.starts.map((t) => t - h.starts[0]!)).toEqual([0, 1000, 3500]);
    expect(h.maxInFlight()).toBe(1);
  });

  it("passes asked = true to the first step and to a poked one, false to the steps the delay brings", async () => {
    const asked: boolean[] = [];
    task = startRepeatingTask({ step: async (_signal, byPerson) => void asked.push(byPerson), delayMs: () => 1000, visibility: fakeVisibility().visibility });
    await vi.advanceTimersByTimeAsync(2500);
    task.poke();
    await vi.advanceTimersByTimeAsync(1000);
    expect(asked).toEqual([true, false, false, true, false]);
  });

  it("can wait one delay before the first step", async () => {
    const h = harness(0);
    task = startRepeatingTask({ step: h.step, delayMs: () => 2000, immediate: false, visibility: fakeVisibility().visibility });
    await vi.advanceTimersByTimeAsync(1999);
    expect(h.starts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.starts).toHaveLength(1);
  });
});
