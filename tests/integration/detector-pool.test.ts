// The detector pool on real worker threads: the built-in model (tfjs on WebAssembly in Node) finds the people of a
// real photo where COCO's ground truth has them, and looks closer at small motion regions; an administrator's ONNX
// model (tiny ones the tests build) runs through the same threads; cameras are served in turn, a crashed thread is
// replaced, a reload swaps the model and close ends every thread.
import { readFileSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iou, type Box } from "#app/studio/local-vision/geometry";
import { yoloDetector } from "../support/onnx-model";
import { realDataFile } from "../support/real-data";
import type { RgbPicture } from "#server/local-detector/frame-detector";
import { createDetectorPool, type LocalDetectorPool } from "#server/local-detector/pool/detector-pool";
import type { DetectRequest, PoolModel } from "#server/local-detector/pool/types";

interface PhotoTruth {
  boxes: { label: string; bbox_xywh: [number, number, number, number]; iscrowd?: boolean }[];
}

async function photo(name: string): Promise<{ frame: RgbPicture; people: Box[] }> {
  const { data, info } = await sharp(realDataFile(`images/${name}`))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const truth = (JSON.parse(readFileSync(realDataFile("images/ground_truth.json"), "utf8")) as Record<string, PhotoTruth>)[name]!;
  const people = truth.boxes
    .filter((box) => box.label === "person" && !box.iscrowd)
    .map(({ bbox_xywh: [x, y, w, h] }) => ({ x_min: x / info.width, y_min: y / info.height, x_max: (x + w) / info.width, y_max: (y + h) / info.height }));
  return { frame: { width: info.width, height: info.height, rgb: new Uint8Array(data) }, people };
}

const grey = (width: number, height: number, value = 255): RgbPicture => ({ width, height, rgb: new Uint8Array(width * height * 3).fill(value) });
const request = (cameraId: string, frame = grey(128, 64)): DetectRequest => ({ cameraId, frame, minScore: 0.3, regions: [] });
const LABELS = ["person", "forklift"];
/** A 64² YOLO model answering one box (at input 32,32, 16×8) of the label `answer`. */
const onnx = (answer: number, labels = LABELS): PoolModel => ({
  kind: "onnx",
  name: `answers ${labels[answer]}`,
  format: "yolo",
  pixelScaling: "unit",
  labels,
  bytes: yoloDetector([{ cx: 32, cy: 32, w: 16, h: 8, scores: labels.map((_, index) => (index === answer ? 0.9 : 0)) }], labels.length, { inputSize: 64 }),
});

describe("the built-in detector in the pool", () => {
  let pool: LocalDetectorPool;
  beforeAll(async () => {
    pool = createDetectorPool({ size: 1, model: { kind: "built-in" } });
    await pool.ready();
  });
  afterAll(() => pool?.close());

  it("finds each person of a real photo where COCO's ground truth has them, with the COCO labels", async () => {
    const { frame, people } = await photo("000000424349.jpg");
    const result = await pool.detect({ cameraId: "kitchen", frame, minScore: 0.3, regions: [] });
    if (result === "busy") throw new Error("busy");
    const found = result.detections.filter((detection) => detection.label === "person");
    expect(people).toHaveLength(2);
    for (const person of people) expect(Math.max(...found.map((detection) => iou(detection.box, person)))).toBeGreaterThan(0.7);
    // One box each: nothing else the model answered passes for a person.
    expect(found).toHaveLength(2);
    expect(pool.labels()).toContain("person");
    expect(result.cpuMs).toBeGreaterThan(0);
  });

  it("looks closer at small motion regions: more of the small, distant people than the whole frame alone finds", async () => {
    // Ten people 6 to 46 px tall on a 480×640 beach, in two groups: the whole frame scales them to a third in the
    // 512² input. Motion around each group gives the model a crop of it, enlarged.
    const { frame, people } = await photo("000000074646.jpg");
    expect(people).toHaveLength(10);
    const groups = [
      { x: 0.12, y: 0.7, w: 0.1, h: 0.09 },
      { x: 0.77, y: 0.71, w: 0.08, h: 0.06 },
    ];
    const found = (detections: { box: Box; label: string }[]) =>
      people.filter((person) => detections.some((detection) => detection.label === "person" && iou(detection.box, person) > 0.3)).length;
    const whole = await pool.detect({ cameraId: "beach", frame, minScore: 0.3, regions: [] });
    const closer = await pool.detect({ cameraId: "beach", frame, minScore: 0.3, regions: groups });
    if (whole === "busy" || closer === "busy") throw new Error("busy");
    // Measured: 5 of the 10 from the whole frame, 8 with the two crops.
    expect(found(closer.detections)).toBeGreaterThanOrEqual(found(whole.detections) + 2);
  });
});

describe("the detector pool's threads", () => {
  it("runs an administrator's ONNX model on frames: boxes through the letterbox, with its label list", async () => {
    const pool = createDetectorPool({ size: 1, model: onnx(1) });
    try {
      const result = await pool.detect(request("dock"));
      if (result === "busy") throw new Error("busy");
      // The 128×64 frame letterboxes to 64×32 at top 16: the box at input (32, 32) sized 16×8 is x 0.375–0.625, y 0.375–0.625.
      expect(result.detections).toHaveLength(1);
      expect(result.detections[0]!.label).toBe("forklift");
      expect(result.detections[0]!.box.x_min).toBeCloseTo(0.375);
      expect(result.detections[0]!.box.y_max).toBeCloseTo(0.625);
      expect(pool.labels()).toEqual(LABELS);
      expect(pool.stats()).toEqual({ workers: 1, waiting: 0, model: "answers forklift" });
    } finally {
      await pool.close();
    }
  });

  it("suppresses overlapping boxes of a class, as the studio does after its model, and keeps another class's box", async () => {
    const boxes = [
      { cx: 32, cy: 32, w: 16, h: 8, scores: [0, 0.9] },
      { cx: 33, cy: 32, w: 16, h: 8, scores: [0, 0.8] },
      { cx: 32, cy: 32, w: 16, h: 8, scores: [0.7, 0] },
    ];
    const model: PoolModel = { kind: "onnx", name: "twice", format: "yolo", pixelScaling: "unit", labels: LABELS, bytes: yoloDetector(boxes, LABELS.length, { inputSize: 64 }) };
    const pool = createDetectorPool({ size: 1, model });
    try {
      const result = await pool.detect(request("dock"));
      if (result === "busy") throw new Error("busy");
      expect(result.detections.map(({ label, score }) => [label, Number(score.toFixed(2))])).toEqual([
        ["forklift", 0.9],
        ["person", 0.7],
      ]);
    } finally {
      await pool.close();
    }
  });

  it("serves cameras in turn: three cameras flooding one thread are each served, and a camera's second waiting request is busy", async () => {
    const pool = createDetectorPool({ size: 1, model: onnx(0) });
    try {
      await pool.ready();
      const served: string[] = [];
      const first = pool.detect(request("a")); // goes to the thread at once
      const waitingA = pool.detect(request("a")); // waits
      expect(await pool.detect(request("a"))).toBe("busy");
      expect(pool.stats().waiting).toBe(1);
      await Promise.all([first, waitingA]);
      const flood = async (camera: string) => {
        while (served.length < 12) {
          const result = await pool.detect(request(camera));
          if (result !== "busy") served.push(camera);
        }
      };
      await Promise.all(["a", "b", "c"].map(flood));
      for (const camera of ["a", "b", "c"]) expect(served.filter((name) => name === camera).length).toBeGreaterThanOrEqual(3);
    } finally {
      await pool.close();
    }
  });

  it("replaces a thread that dies, failing only the request it was running", async () => {
    const started: Worker[] = [];
    const onWorker = (worker: Worker) => started.push(worker);
    process.on("worker", onWorker);
    const pool = createDetectorPool({ size: 1, model: onnx(0) });
    try {
      await pool.ready();
      const running = pool.detect(request("gate"));
      void started.at(-1)!.terminate();
      await expect(running).rejects.toThrow(/detector thread stopped/);
      const after = await pool.detect(request("gate"));
      expect(after).not.toBe("busy");
      expect(started.length).toBe(2);
      expect(pool.stats().workers).toBe(1);
    } finally {
      process.off("worker", onWorker);
      await pool.close();
    }
  });

  it("swaps the model on reload, and ends every thread on close", async () => {
    const started: Worker[] = [];
    const exited: number[] = [];
    const onWorker = (worker: Worker) => {
      started.push(worker);
      worker.on("exit", () => exited.push(started.indexOf(worker)));
    };
    process.on("worker", onWorker);
    const pool = createDetectorPool({ size: 2, model: onnx(1) });
    try {
      const before = await pool.detect(request("yard"));
      if (before === "busy") throw new Error("busy");
      expect(before.detections.map((detection) => detection.label)).toEqual(["forklift"]);
      await pool.reload(onnx(0, ["cat", "dog"]));
      expect(pool.labels()).toEqual(["cat", "dog"]);
      const after = await pool.detect(request("yard"));
      if (after === "busy") throw new Error("busy");
      expect(after.detections.map((detection) => detection.label)).toEqual(["cat"]);
      expect(started).toHaveLength(4);
      await pool.close();
      await expect.poll(() => exited.length).toBe(4);
      await expect(pool.detect(request("yard"))).rejects.toThrow(/closed/);
    } finally {
      process.off("worker", onWorker);
      await pool.close();
    }
  });

  it("reports a model that cannot load on every request instead of restarting threads", async () => {
    const pool = createDetectorPool({
      size: 1,
      model: { kind: "onnx", name: "not a model", format: "yolo", pixelScaling: "unit", labels: LABELS, bytes: new TextEncoder().encode("not ONNX") },
    });
    try {
      await expect(pool.ready()).rejects.toThrow(/"not a model" did not load: ONNX Runtime cannot open this file/);
      await expect(pool.detect(request("gate"))).rejects.toThrow(/did not load/);
    } finally {
      await pool.close();
    }
  });
});
