// Local vision's controller with a fake detector: lazy load with progress, one frame in flight, tracks confirmed
// before they show, the class choice, the local people count, camera changes, stop and failure, and disposing the worker.
import { describe, expect, it } from "vitest";
import { createStore } from "../store";
import type { DetectorBackend, LocalDetection, LocalDetector } from "./detector";
import { BUILT_IN_DETECTOR, type DetectorChoice, type OnnxDetectorChoice } from "./detector-types";
import { LocalVisionController } from "./local-vision-controller";
import type { ServerScene } from "./server-scene";
import { thumbnailKey } from "./thumbnails";
import { TRACKER_MIN_SCORE } from "./tracker";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function person(x: number, label = "person"): LocalDetection {
  return { box: { x_min: x, y_min: 0.2, x_max: x + 0.2, y_max: 0.7 }, score: 0.9, label } as LocalDetection;
}

function harness(detectorChoice?: () => Promise<DetectorChoice>) {
  const cameras = { store: createStore({ selectedCameraId: "cam-1" as string | null }) };
  const loads: Array<ReturnType<typeof deferred<{ backend: DetectorBackend }>>> = [];
  const progress: Array<(fraction: number) => void> = [];
  const detects: Array<ReturnType<typeof deferred<LocalDetection[]>>> = [];
  let made = 0;
  let disposed = 0;
  let closedFrames = 0;
  let clock = 0;
  const detectOptions: unknown[] = [];
  const loadOptions: unknown[] = [];
  const detector = (): LocalDetector => {
    made += 1;
    return {
      load(onProgress, options) {
        loadOptions.push(options);
        progress.push(onProgress ?? (() => {}));
        const load = deferred<{ backend: DetectorBackend }>();
        loads.push(load);
        return load.promise;
      },
      detect(_frame, options) {
        detectOptions.push(options);
        const answer = deferred<LocalDetection[]>();
        detects.push(answer);
        return answer.promise;
      },
      dispose: () => void (disposed += 1),
    };
  };
  const controller = new LocalVisionController(
    {
      cameras,
      grabBitmap: async () => ({ close: () => void (closedFrames += 1) }) as unknown as ImageBitmap,
      nextFrame: flush,
      now: () => (clock += 200),
      detectorChoice,
    },
    detector,
  );
  /** Answers the frame in flight and waits for the next one to be sent. */
  const answer = async (detections: LocalDetection[]) => {
    const pending = detects.length;
    detects[pending - 1]!.resolve(detections);
    await flush();
    return detects.length > pending;
  };
  return { controller, cameras, loads, loadOptions, progress, detects, detectOptions, answer, made: () => made, disposed: () => disposed, closedFrames: () => closedFrames };
}

describe("LocalVisionController", () => {
  it("loads the detector lazily on the first switch-on, with progress, and says which backend runs", async () => {
    const h = harness();
    expect(h.made()).toBe(0);
    h.controller.setEnabled(true);
    expect(h.made()).toBe(1);
    expect(h.controller.store.get().status).toBe("loading");
    h.progress[0]!(0.4);
    expect(h.controller.store.get().progress).toBe(0.4);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    expect(h.controller.store.get()).toMatchObject({ status: "running", backend: "wasm", progress: 1 });
    expect(h.detects).toHaveLength(1);
  });

  it("keeps one frame in flight and shows a track only once it is confirmed, with its id and class", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    await flush();
    expect(h.detects).toHaveLength(1); // no second frame before the first is answered
    expect(await h.answer([person(0.1)])).toBe(true);
    expect(h.controller.store.get().tracks).toEqual([]); // one hit: not confirmed
    await h.answer([person(0.11)]);
    await h.answer([person(0.12)]);
    const [track] = h.controller.store.get().tracks;
    expect(track).toMatchObject({ label: "person", id: expect.any(Number) });
    expect(h.controller.store.get().cameraId).toBe("cam-1");
    expect(h.controller.store.get().fps).toBeCloseTo(5);
    expect(h.controller.store.get().frames).toBe(3); // each frame analysed on the device (the AI calls panel's figure)
  });

  it("tracks only the chosen classes", async () => {
    const h = harness();
    h.controller.setClasses(["dog", "not a class"]);
    expect(h.controller.store.get().classes).toEqual(["dog"]);
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    for (let i = 0; i < 4; i++) await h.answer([person(0.1), person(0.6, "dog")]);
    expect(h.controller.store.get().tracks.map((t) => t.label)).toEqual(["dog"]);
  });

  it("hands every frame's tracks of the watched classes to the heat grid's listener, with the camera and time", async () => {
    const h = harness();
    const frames: Array<{ cameraId: string; at: number; labels: string[] }> = [];
    h.controller.onTracks((frame) => frames.push({ cameraId: frame.cameraId, at: frame.at, labels: frame.tracks.map((t) => t.label) }));
    h.controller.setClasses(["dog"]);
    h.controller.setEnabled(true);
    h.controller.setCountingPeople(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    // A line or zone would track cars too: they are not what the studio watches for, so no heat.
    for (let i = 0; i < 3; i++) await h.answer([person(0.1), person(0.6, "dog"), person(0.35, "cat")]);
    expect(frames).toHaveLength(3);
    expect(frames.every((f) => f.cameraId === "cam-1")).toBe(true);
    expect(frames[1]!.at).toBeGreaterThan(frames[0]!.at);
    expect(frames[2]!.labels.sort()).toEqual(["dog", "person"]);
    // Every frame, with or without tracks.
    await h.answer([]);
    expect(frames).toHaveLength(4);
  });

  it("drops the tracks on a camera change and the answer to a frame of the old camera", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    for (let i = 0; i < 3; i++) await h.answer([person(0.1)]);
    expect(h.controller.store.get().tracks).toHaveLength(1);
    h.cameras.store.set({ selectedCameraId: "cam-2" });
    expect(h.controller.store.get().tracks).toEqual([]);
    await h.answer([person(0.1)]); // the frame was taken from cam-1
    expect(h.controller.store.get().cameraId).toBeNull();
  });

  it("stops on switch-off (a late answer is dropped) and starts again without reloading", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    for (let i = 0; i < 3; i++) await h.answer([person(0.1)]);
    h.controller.setEnabled(false);
    expect(h.controller.store.get()).toMatchObject({ enabled: false, status: "off", tracks: [] });
    expect(await h.answer([person(0.1)])).toBe(false);
    expect(h.controller.store.get().tracks).toEqual([]);
    h.controller.setEnabled(true);
    await flush();
    expect(h.made()).toBe(1);
    expect(h.controller.store.get().status).toBe("running");
    expect(h.detects.length).toBeGreaterThan(4);
  });

  it("says why when the detector cannot load, switches off, and tries afresh next time", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.reject(new Error("No tfjs backend works"));
    await flush();
    expect(h.controller.store.get()).toMatchObject({ enabled: false, status: "failed" });
    expect(h.controller.store.get().error).toContain("No tfjs backend works");
    expect(h.disposed()).toBe(1);
    h.controller.setEnabled(true);
    expect(h.made()).toBe(2);
  });

  it("counts confirmed people for people counting's local mode, even when the picker leaves people out", async () => {
    const h = harness();
    h.controller.setClasses(["dog"]);
    h.controller.setCountingPeople(true);
    expect(h.made()).toBe(1); // the count alone runs the detector
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    await h.answer([person(0.1), person(0.6)]);
    expect(h.controller.store.get().people).toBe(0); // one frame: nobody confirmed yet
    await h.answer([person(0.1), person(0.6)]);
    await h.answer([person(0.1), person(0.6), person(0.35, "dog")]);
    expect(h.controller.store.get()).toMatchObject({ people: 2, tracks: [] }); // no boxes: local detection is off
    h.controller.setEnabled(true);
    for (let i = 0; i < 3; i++) await h.answer([person(0.1), person(0.6), person(0.35, "dog")]);
    expect(h.controller.store.get().tracks.map((t) => t.label)).toEqual(["dog"]);
    h.controller.setEnabled(false);
    expect(await h.answer([person(0.1), person(0.6)])).toBe(true); // the count keeps the detector running
    expect(h.controller.store.get()).toMatchObject({ people: 2, status: "running" });
    h.controller.setCountingPeople(false);
    expect(h.controller.store.get()).toMatchObject({ people: null, status: "off" });
  });

  it("feeds lines and zones the classes they watch (a zone with none: every class), shows only picked boxes, and keeps live counts", async () => {
    const h = harness();
    h.controller.setRegions("cam-1", {
      lines: [{ id: "door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 }, labels: ["dog"], settleFrames: 1 }],
      zones: [
        {
          id: "yard",
          polygon: [
            { x: 0.55, y: 0 },
            { x: 1, y: 0 },
            { x: 1, y: 1 },
            { x: 0.55, y: 1 },
          ],
          labels: [],
          inertia: 1,
        },
      ],
    });
    expect(h.controller.store.get().lineCounts).toEqual({ door: { in: 0, out: 0, byLabel: {} } });
    expect(h.controller.store.get().zoneOccupancy.yard).toMatchObject({ count: 0 });
    h.controller.setEnabled(true); // the picker keeps its default: people only
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    // A dog walks left to right across the line (its box centre passes x = 0.5); a cat sits in the yard.
    for (let x = 0.1; x <= 0.5; x += 0.05) await h.answer([person(0.0), person(x, "dog"), person(0.75, "cat")]);
    // The dog stays in the yard: the zone's count is a median over a second, so it shows after half of that.
    for (let i = 0; i < 3; i++) await h.answer([person(0.0), person(0.5, "dog"), person(0.75, "cat")]);
    const state = h.controller.store.get();
    expect(state.lineCounts.door).toEqual({ in: 0, out: 1, byLabel: { dog: { in: 0, out: 1 } } });
    expect(state.zoneOccupancy.yard).toMatchObject({ count: 2, byLabel: { cat: 1, dog: 1 } });
    expect(state.tracks.map((t) => t.label)).toEqual(["person"]);
    // Stopped: nobody is known to be in a zone any more; the line keeps its counts until reset.
    h.controller.setEnabled(false);
    expect(h.controller.store.get().zoneOccupancy.yard).toMatchObject({ count: 0 });
    expect(h.controller.store.get().lineCounts.door).toMatchObject({ out: 1 });
    h.controller.resetLine("door");
    expect(h.controller.store.get().lineCounts.door).toMatchObject({ in: 0, out: 0 });
    // Another camera has no regions: nothing beyond the picked classes is tracked there.
    h.cameras.store.set({ selectedCameraId: "cam-2" });
    expect(h.controller.store.get().lineCounts).toEqual({});
  });

  it("asks the detector for weak boxes, which keep a person's track but never show a box of their own", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    expect(h.detectOptions[0]).toEqual({ minScore: TRACKER_MIN_SCORE });
    const weak = (x: number): LocalDetection => ({ ...person(x), score: 0.28 });
    // A person walks in (confident boxes) and stands still, scored 0.28 from then on; a weak box alone elsewhere.
    for (let i = 0; i < 3; i++) await h.answer([person(0.1)]);
    for (let i = 0; i < 20; i++) await h.answer([weak(0.1), weak(0.6)]);
    expect(h.controller.store.get().tracks).toMatchObject([{ id: 1, label: "person", score: 0.28 }]);
  });

  it("disposes the detector's worker", async () => {
    const h = harness();
    h.controller.setEnabled(true);
    h.loads[0]!.resolve({ backend: "wasm" });
    await flush();
    h.controller.dispose();
    expect(h.disposed()).toBe(1);
    expect(await h.answer([person(0.1)])).toBe(false);
  });

  it("runs the deployment's model: the detector loads it, and the classes are its own", async () => {
    const forklifts: OnnxDetectorChoice = {
      kind: "onnx",
      id: "m1",
      name: "Warehouse",
      format: "yolo",
      pixelScaling: "unit",
      labels: ["forklift", "pallet"],
      bytes: 1000,
      modelUrl: "/api/local-detector/model?v=abc",
    };
    const asked = deferred<DetectorChoice>();
    const h = harness(() => asked.promise);
    // Switched on before the answer: the load waits for the model rather than loading the built-in.
    h.controller.setEnabled(true);
    await flush();
    expect(h.loadOptions).toEqual([]);
    asked.resolve(forklifts);
    await flush();
    expect(h.loadOptions).toEqual([{ model: forklifts }]);
    // "person" (the default) is not one of its classes: every class of the model is watched.
    expect(h.controller.store.get()).toMatchObject({ model: forklifts, classes: [] });
    h.controller.setClasses(["pallet", "person", "forklift"]);
    expect(h.controller.store.get().classes).toEqual(["forklift", "pallet"]);
  });

  it("falls back to the built-in detector when the deployment's model cannot be asked for", async () => {
    const h = harness(() => Promise.reject(new Error("401")));
    h.controller.setEnabled(true);
    await flush();
    expect(h.loadOptions).toEqual([{ model: BUILT_IN_DETECTOR }]);
    expect(h.controller.store.get().classes).toEqual(["person"]);
  });

  it("crops a thumbnail of each line crossing from the frame it happened in, and keeps no copy when nothing counts", async () => {
    const cameras = { store: createStore({ selectedCameraId: "cam-1" as string | null }) };
    const frames: string[] = [];
    const closed: string[] = [];
    const crops: Array<{ frame: string; box: unknown }> = [];
    const bitmap = (name: string) => ({ name, close: () => void closed.push(name) }) as unknown as ImageBitmap & { name: string };
    const answers: LocalDetection[][] = [];
    let clock = 0;
    const controller = new LocalVisionController(
      {
        cameras,
        grabBitmap: async () => bitmap(`frame-${frames.push("f")}`),
        nextFrame: flush,
        now: () => (clock += 200),
        thumbnailer: {
          copy: async (frame) => bitmap(`copy-of-${(frame as ImageBitmap & { name: string }).name}`),
          crop: async (frame, box) => {
            crops.push({ frame: (frame as ImageBitmap & { name: string }).name, box });
            return `blob:thumb-${crops.length}`;
          },
          revoke: () => {},
        },
      },
      () => ({
        load: () => Promise.resolve({ backend: "wasm" }),
        detect: (frame) => {
          (frame as ImageBitmap).close();
          const next = answers.shift();
          // After the walk, the detector never answers: the loop waits (an instant answer would spin it forever).
          return next ? new Promise((resolve) => setTimeout(() => resolve(next), 0)) : new Promise(() => {});
        },
        dispose: () => {},
      }),
    );
    const walker = (x: number) => [person(x)];
    // A person walking left to right across a vertical line at x = 0.5 (anchor: the box's centre).
    answers.push(walker(0.1), walker(0.15), walker(0.2), walker(0.25), walker(0.35), walker(0.45), walker(0.55), walker(0.6));
    controller.setRegions("cam-1", { lines: [{ id: "door", a: { x: 0.6, y: 0 }, b: { x: 0.6, y: 1 }, anchor: "centre" }], zones: [] });
    controller.setEnabled(true);
    for (let i = 0; i < 50 && answers.length > 0; i++) await flush();
    for (let i = 0; i < 5; i++) await flush();
    const { thumbnails, insights } = controller.store.get();
    const crossing = insights["door"]!.happenings[0]!;
    expect(crops).toHaveLength(1);
    expect(crops[0]!.box).toMatchObject({ x_min: expect.any(Number) });
    expect(thumbnails).toEqual({ [thumbnailKey("door", crossing.at, crossing.trackId)]: "blob:thumb-1" });
    // Every copy is closed: the one cropped, and those of frames with no event.
    const copies = closed.filter((name) => name.startsWith("copy-of-"));
    expect(copies.length).toBeGreaterThanOrEqual(8);
    controller.dispose();
  });
});

describe("LocalVisionController on a camera the server watches", () => {
  function serverHarness() {
    const cameras = { store: createStore({ selectedCameraId: "ip-1" as string | null }) };
    const watched = new Set(["ip-1"]);
    const listeners = new Set<() => void>();
    const open: Array<{ cameraId: string; onScene: (scene: ServerScene) => void; closed: boolean }> = [];
    let detects = 0;
    let loads = 0;
    const controller = new LocalVisionController(
      {
        cameras,
        grabBitmap: async () => ({ close: () => {} }) as unknown as ImageBitmap,
        nextFrame: flush,
        now: (() => {
          let clock = 0;
          return () => (clock += 200);
        })(),
        serverScenes: {
          watched: (id) => watched.has(id),
          subscribe: (listener) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
          open: (cameraId, onScene) => {
            const entry = { cameraId, onScene, closed: false };
            open.push(entry);
            return () => void (entry.closed = true);
          },
        },
      },
      () => ({
        load: async () => {
          loads += 1;
          return { backend: "wasm" as DetectorBackend };
        },
        detect: async () => {
          detects += 1;
          await flush();
          return [];
        },
        dispose: () => {},
      }),
    );
    const unwatch = (id: string) => {
      watched.delete(id);
      listeners.forEach((listener) => listener());
    };
    return { controller, cameras, open, unwatch, detects: () => detects, loads: () => loads };
  }

  const scene = (tracks: ServerScene["tracks"]): ServerScene => ({
    at: Date.now(),
    tracks,
    lineCounts: { "line-1": { in: 3, out: 1, byLabel: { person: { in: 3, out: 1 } } } },
    zoneOccupancy: { "zone-1": { count: 2, byLabel: { person: 2 }, occupants: [] } },
  });

  it("draws the server's tracks, counts and occupancy and runs no detector of its own, then detects here once the watch is off", async () => {
    const h = serverHarness();
    h.controller.setEnabled(true);
    h.controller.setCountingPeople(true);
    await flush();
    expect(h.open).toHaveLength(1);
    expect(h.open[0]!.cameraId).toBe("ip-1");
    expect(h.loads()).toBe(0);
    expect(h.controller.store.get()).toMatchObject({ status: "running", fromServer: true });

    h.open[0]!.onScene(
      scene([
        { id: 4, label: "person", box: { x_min: 0.1, y_min: 0.1, x_max: 0.3, y_max: 0.8 }, score: 0.8 },
        { id: 5, label: "dog", box: { x_min: 0.5, y_min: 0.5, x_max: 0.6, y_max: 0.7 }, score: 0.7 },
      ]),
    );
    const state = h.controller.store.get();
    // The picked classes (person) are drawn; the people count counts people only.
    expect(state.tracks.map((t) => t.id)).toEqual([4]);
    expect(state.people).toBe(1);
    expect(state.cameraId).toBe("ip-1");
    expect(state.lineCounts["line-1"]).toMatchObject({ in: 3, out: 1 });
    expect(state.zoneOccupancy["zone-1"]?.count).toBe(2);
    await flush();
    expect(h.detects()).toBe(0);

    h.unwatch("ip-1");
    await flush();
    await flush();
    expect(h.open[0]!.closed).toBe(true);
    expect(h.loads()).toBe(1);
    expect(h.detects()).toBeGreaterThan(0);
    expect(h.controller.store.get().fromServer).toBe(false);
    h.controller.dispose();
  });

  it("stops following the server when switched off or when another camera is selected", async () => {
    const h = serverHarness();
    h.controller.setEnabled(true);
    await flush();
    expect(h.open).toHaveLength(1);
    h.controller.setEnabled(false);
    await flush();
    expect(h.open[0]!.closed).toBe(true);

    h.controller.setEnabled(true);
    await flush();
    expect(h.open).toHaveLength(2);
    h.cameras.store.set({ selectedCameraId: "webcam-1" });
    await flush();
    expect(h.open[1]!.closed).toBe(true);
    await flush();
    expect(h.loads()).toBe(1); // the webcam is detected on this device
    h.controller.dispose();
  });
});
