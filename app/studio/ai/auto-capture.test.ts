// Auto-capture: only with boxes, at most once per 5000 ms, never two saves at once; the status line.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Photo } from "../../schemas/photos";
import { AUTO_CAPTURE_GAP_MS, AutoCaptureController, autoCaptureStatus, shouldAutoCapture } from "./auto-capture";
import type { BoxesListener } from "./detection-controller";

afterEach(() => vi.restoreAllMocks());

describe("shouldAutoCapture", () => {
  const base = { enabled: true, boxes: 1, lastCaptureAt: null, now: 10_000, busy: false };
  it("captures the first detection with a box, and not without boxes, while off or busy", () => {
    expect(shouldAutoCapture(base)).toBe(true);
    expect(shouldAutoCapture({ ...base, boxes: 0 })).toBe(false);
    expect(shouldAutoCapture({ ...base, enabled: false })).toBe(false);
    expect(shouldAutoCapture({ ...base, busy: true })).toBe(false);
  });
  it("waits 5000 ms between captures", () => {
    expect(AUTO_CAPTURE_GAP_MS).toBe(5000);
    expect(shouldAutoCapture({ ...base, lastCaptureAt: 10_000 - 4999 })).toBe(false);
    expect(shouldAutoCapture({ ...base, lastCaptureAt: 10_000 - 5000 })).toBe(true);
  });
});

describe("autoCaptureStatus", () => {
  it("monitors only when auto-capture and box detection are both on", () => {
    expect(autoCaptureStatus(true, { enabled: true, boxQuery: "person" })).toEqual({ monitoring: true, query: "person" });
    expect(autoCaptureStatus(true, { enabled: false, boxQuery: "person" })).toEqual({ monitoring: false });
    expect(autoCaptureStatus(false, { enabled: true, boxQuery: "person" })).toEqual({ monitoring: false });
  });
});

describe("AutoCaptureController", () => {
  function harness() {
    let listener: BoxesListener = () => {};
    let now = 0;
    const saves: Array<{ resolve: (p: Photo) => void; extra: unknown }> = [];
    const controller = new AutoCaptureController(
      {
        captureOne: (options) =>
          new Promise<Photo>((resolve) => {
            saves.push({ resolve, extra: options?.extra });
          }),
      },
      { onBoxes: (l) => ((listener = l), () => {}) },
      () => now,
    );
    const detect = (boxes: number) =>
      listener({ boxes: Array.from({ length: boxes }, () => ({ x_min: 0.1, y_min: 0.1, x_max: 0.2, y_max: 0.2 })), query: "person", cameraId: "c" });
    return { controller, saves, detect, at: (t: number) => (now = t) };
  }

  it("saves with the detection data, once per gap, and skips while a save is in flight", async () => {
    const h = harness();
    h.detect(2); // off: nothing
    expect(h.saves).toHaveLength(0);
    h.controller.setEnabled(true);
    h.detect(2);
    expect(h.saves).toHaveLength(1);
    expect(h.saves[0]!.extra).toEqual({ autoCapture: true, detectionQuery: "person", detectionBoxes: [expect.any(Object), expect.any(Object)] });
    h.at(6000);
    h.detect(1); // gap passed but the first save still runs
    expect(h.saves).toHaveLength(1);
    h.saves[0]!.resolve({ id: "p1" } as Photo);
    await vi.waitFor(() => expect(h.controller.store.get().saved).toBe(1));
    h.at(7000);
    h.detect(1); // 7000 ms after the first capture started: allowed
    expect(h.saves).toHaveLength(2);
    h.saves[1]!.resolve({ id: "p2" } as Photo);
    await vi.waitFor(() => expect(h.controller.store.get().saved).toBe(2));
    h.at(11_999);
    h.detect(3); // 4999 ms after the second: too soon
    expect(h.saves).toHaveLength(2);
    h.at(12_000);
    h.detect(0); // no boxes: nothing
    expect(h.saves).toHaveLength(2);
  });

  it("logs a failed save and tries again after the gap", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let listener: BoxesListener = () => {};
    let now = 0;
    const captureOne = vi.fn(() => Promise.reject(new Error("No video stream available. Please add a camera first.")));
    const controller = new AutoCaptureController({ captureOne }, { onBoxes: (l) => ((listener = l), () => {}) }, () => now);
    controller.setEnabled(true);
    const detect = () => listener({ boxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }], query: "cat", cameraId: null });
    detect();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    now = 1000;
    detect();
    expect(captureOne).toHaveBeenCalledTimes(1);
    now = 5000;
    detect();
    expect(captureOne).toHaveBeenCalledTimes(2);
  });
});
