// Detection loops: exclusivity, runs only with a non-blank object, results kept with their camera and
// cleared at once on stop, failure and camera change; a stale answer (query changed meanwhile, or the
// loop stopped) is dropped, and switching kinds never leaves a second loop running.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToastInput } from "../../components/ui/toast-store";
import { createStore } from "../store";
import type { CamerasState } from "../cameras/cameras";
import { activeDetection, DetectionController } from "./detection-controller";
import { DEFAULT_BOX_SETTINGS, DEFAULT_POINT_SETTINGS } from "./detection-settings";
import type { PageVisibility } from "./repeating-task";

const visible: PageVisibility = { isHidden: () => false, onChange: () => () => {} };

interface Call {
  url: string;
  body: Record<string, unknown>;
  answer: (response: Response) => void;
}

/** `honourAbort: false` lets an answer race the abort (it was already on its way when the loop stopped). */
function harness({ honourAbort = true } = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          if (honourAbort) init.signal?.addEventListener("abort", () => reject(new DOMException("stopped", "AbortError")));
          calls.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown>, answer: resolve });
        }),
    ),
  );
  const cameras = { store: createStore({ selectedCameraId: "cam-1" } as CamerasState) };
  const toasts: ToastInput[] = [];
  const failures = { report: vi.fn(), succeeded: vi.fn() };
  let grabs = 0;
  const controller = new DetectionController(
    {
      cameras,
      notify: { toast: (t) => toasts.push(t), alert: () => {} },
      failures,
      grabFrame: async (quality) => {
        grabs += 1;
        expect(quality).toBe(0.6);
        return { dataUrl: "data:image/jpeg;base64,AAAA" };
      },
    },
    visible,
  );
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  return { controller, calls, cameras, toasts, failures, json, grabs: () => grabs };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("activeDetection", () => {
  it("runs the enabled kind only with a non-blank object", () => {
    expect(activeDetection({ box: { ...DEFAULT_BOX_SETTINGS, enabled: true }, point: DEFAULT_POINT_SETTINGS })).toBe("box");
    expect(activeDetection({ box: { ...DEFAULT_BOX_SETTINGS, enabled: true, boxQuery: "  " }, point: DEFAULT_POINT_SETTINGS })).toBeNull();
    expect(activeDetection({ box: DEFAULT_BOX_SETTINGS, point: { ...DEFAULT_POINT_SETTINGS, enabled: true } })).toBe("point");
    expect(activeDetection({ box: DEFAULT_BOX_SETTINGS, point: { ...DEFAULT_POINT_SETTINGS, enabled: true, object: "" } })).toBeNull();
  });
});

describe("DetectionController", () => {
  it("enabling one kind disables the other", () => {
    const { controller } = harness();
    controller.setBoxEnabled(true);
    controller.setPointEnabled(true);
    expect(controller.store.get().box.enabled).toBe(false);
    expect(controller.store.get().point.enabled).toBe(true);
    controller.setBoxEnabled(true);
    expect(controller.store.get().point.enabled).toBe(false);
    controller.dispose();
  });

  it("detects boxes with the settings, keeps them with the camera, and clears them when the camera changes", async () => {
    const h = harness();
    h.controller.updateBox({ maxBoxes: 4, boxConfidenceThreshold: 0.55 });
    h.controller.setBoxEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]!.url).toBe("/api/moondream/detect");
    expect(h.calls[0]!.body).toMatchObject({ object: "person", maxObjects: 4, confidenceThreshold: 0.55 });
    const box = { x_min: 0.1, y_min: 0.2, x_max: 0.3, y_max: 0.4 };
    h.calls[0]!.answer(h.json({ boxes: [box] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toMatchObject({ kind: "box", cameraId: "cam-1", query: "person", boxes: [box] });
    expect(h.failures.succeeded).toHaveBeenCalled();
    h.cameras.store.set({ selectedCameraId: "cam-2" });
    expect(h.controller.store.get().results).toBeNull();
    h.controller.dispose();
  });

  it("clears results when detection fails or stops, and reports the failure", async () => {
    const h = harness();
    h.controller.setBoxEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ boxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }] }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.controller.store.get().results?.boxes).toHaveLength(1);
    expect(h.calls).toHaveLength(2); // the next round after the 5 s interval
    h.calls[1]!.answer(h.json({ type: "about:blank", title: "Bad Gateway", status: 502, detail: "down" }, 502));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toBeNull();
    expect(h.failures.report).toHaveBeenCalledWith("Box detection", expect.anything());
    await vi.advanceTimersByTimeAsync(5000);
    h.calls[2]!.answer(h.json({ boxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).not.toBeNull();
    h.controller.setBoxEnabled(false);
    expect(h.controller.store.get().results).toBeNull();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.calls).toHaveLength(3);
    h.controller.dispose();
  });

  it("Apply commits a new query (toast, immediate round) and an answer for the old query is dropped", async () => {
    const h = harness();
    h.controller.setBoxEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.applyBoxQuery("   ")).toBe(false);
    expect(h.controller.applyBoxQuery(" red car ")).toBe(true);
    expect(h.toasts.map((t) => t.title)).toEqual(["Detection Updated"]);
    h.calls[0]!.answer(h.json({ boxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toBeNull(); // that answer was about "person"
    expect(h.calls).toHaveLength(2); // the poke queued a round right behind the one in flight
    expect(h.calls[1]!.body.object).toBe("red car");
    h.controller.dispose();
  });

  it("does not call the provider while the object is blank, and point detection sends its object", async () => {
    const h = harness();
    h.controller.updatePoint({ object: "" });
    h.controller.setPointEnabled(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.calls).toHaveLength(0);
    h.controller.updatePoint({ object: "cup" });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]!.url).toBe("/api/moondream/point");
    expect(h.calls[0]!.body.object).toBe("cup");
    h.calls[0]!.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toMatchObject({ kind: "point", points: [{ x: 0.5, y: 0.5 }] });
    h.controller.dispose();
  });

  it("tells box listeners (auto-capture) only about results with boxes", async () => {
    const h = harness();
    const seen: number[] = [];
    h.controller.onBoxes(({ boxes }) => seen.push(boxes.length));
    h.controller.setBoxEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ boxes: [] }));
    await vi.advanceTimersByTimeAsync(5000);
    h.calls[1]!.answer(h.json({ boxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1]);
    h.controller.dispose();
  });
});

describe("the overlay is cleared at once and stays clear", () => {
  const box = { x_min: 0.1, y_min: 0.2, x_max: 0.3, y_max: 0.4 };

  it("switching point detection off clears its points, and an answer already on its way is dropped", async () => {
    const h = harness({ honourAbort: false });
    h.controller.setPointEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.controller.store.get().results?.points).toHaveLength(1);
    expect(h.calls).toHaveLength(2); // the next round is in flight
    h.controller.setPointEnabled(false);
    expect(h.controller.store.get().results).toBeNull();
    h.calls[1]!.answer(h.json({ points: [{ x: 0.25, y: 0.25 }] }));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.controller.store.get().results).toBeNull();
    expect(h.calls).toHaveLength(2);
    h.controller.dispose();
  });

  it("box → point → off leaves no loop behind: one point loop runs, and once off nothing is drawn again", async () => {
    const h = harness();
    h.controller.setBoxEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ boxes: [box] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results?.kind).toBe("box");
    // Enabling points turns boxes off while their results are on screen.
    h.controller.setPointEnabled(true);
    expect(h.controller.store.get().results).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    const pointCalls = () => h.calls.filter((c) => c.url === "/api/moondream/point");
    expect(pointCalls()).toHaveLength(1);
    pointCalls()[0]!.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results?.kind).toBe("point");
    h.controller.setPointEnabled(false);
    expect(h.controller.store.get().results).toBeNull();
    // Rounds a stray loop would run: none happen, and nothing comes back.
    for (let round = 0; round < 4; round++) {
      for (const call of h.calls) call.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(pointCalls()).toHaveLength(1);
    expect(h.controller.store.get().results).toBeNull();
    h.controller.dispose();
  });

  it("a camera switch clears the points at once and the answer for the old camera is dropped", async () => {
    const h = harness({ honourAbort: false });
    h.controller.setPointEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.controller.store.get().results?.cameraId).toBe("cam-1");
    h.cameras.store.set({ selectedCameraId: "cam-2" });
    expect(h.controller.store.get().results).toBeNull();
    h.calls[1]!.answer(h.json({ points: [{ x: 0.25, y: 0.25 }] })); // the frame was cam-1's
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toBeNull();
    h.controller.dispose();
  });

  it("a failed point call clears the points at once and reports the failure", async () => {
    const h = harness();
    h.controller.setPointEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.answer(h.json({ points: [{ x: 0.5, y: 0.5 }] }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.controller.store.get().results?.points).toHaveLength(1);
    h.calls[1]!.answer(h.json({ type: "about:blank", title: "Service Unavailable", status: 503, detail: "down" }, 503));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().results).toBeNull();
    expect(h.failures.report).toHaveBeenCalledWith("Point detection", expect.anything());
    h.controller.dispose();
  });
});
