// The burst/timelapse scheduler: exact counts, stop, intervals on a fixed grid, never overlapping.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCapturePlan, type CaptureProgress } from "./capture-scheduler";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function harness(captureMs = 0) {
  const starts: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const progress: CaptureProgress[] = [];
  const capture = async () => {
    starts.push(Date.now());
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (captureMs) await new Promise((resolve) => setTimeout(resolve, captureMs));
    inFlight -= 1;
  };
  return { starts, progress, capture, onProgress: (p: CaptureProgress) => progress.push(p), maxInFlight: () => maxInFlight, now: () => Date.now() };
}

describe("runCapturePlan", () => {
  it("takes exactly the burst count, one interval apart", async () => {
    const h = harness();
    const run = runCapturePlan({ count: 5, intervalMs: 200 }, h);
    await vi.runAllTimersAsync();
    const result = await run.done;
    expect(result).toEqual({ taken: 5, total: 5, running: false, error: null });
    const t0 = h.starts[0]!;
    expect(h.starts.map((t) => t - t0)).toEqual([0, 200, 400, 600, 800]);
  });

  it("keeps the grid when a capture is slower than nothing but faster than the interval", async () => {
    const h = harness(150);
    const run = runCapturePlan({ count: 3, intervalMs: 1000 }, h);
    await vi.runAllTimersAsync();
    await run.done;
    const t0 = h.starts[0]!;
    expect(h.starts.map((t) => t - t0)).toEqual([0, 1000, 2000]);
  });

  it("never runs two captures at once when a capture overruns its slot", async () => {
    const h = harness(500);
    const run = runCapturePlan({ count: 4, intervalMs: 100 }, h);
    await vi.runAllTimersAsync();
    expect((await run.done).taken).toBe(4);
    expect(h.maxInFlight()).toBe(1);
    const t0 = h.starts[0]!;
    expect(h.starts.map((t) => t - t0)).toEqual([0, 500, 1000, 1500]);
  });

  it("stops an endless timelapse on demand and reports what was taken", async () => {
    const h = harness();
    const run = runCapturePlan({ count: null, intervalMs: 1000 }, h);
    await vi.advanceTimersByTimeAsync(3500);
    run.stop();
    const result = await run.done;
    expect(result).toEqual({ taken: 4, total: null, running: false, error: null });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.starts).toHaveLength(4);
  });

  it("ends with the error when a capture fails", async () => {
    let n = 0;
    const run = runCapturePlan(
      { count: 5, intervalMs: 10 },
      {
        capture: async () => {
          if (++n === 3) throw new Error("No video stream available. Please add a camera first.");
        },
        onProgress: () => {},
      },
    );
    await vi.runAllTimersAsync();
    expect(await run.done).toEqual({ taken: 2, total: 5, running: false, error: "No video stream available. Please add a camera first." });
  });
});
