// The administrator's ONNX detector on onnxruntime-node, with small models the tests build (tests/support/onnx-model.ts):
// YOLO and DETR outputs become the product's boxes on the frame, and models that do not fit are refused with a message.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkOnnxDetector, openOnnxDetector, OnnxModelProblem } from "./onnx-detector";
import { classifierModel, detrDetector, yoloDetector } from "../../tests/support/onnx-model";

const LABELS = ["person", "forklift"];

async function picture(width: number, height: number, grey: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: grey, g: grey, b: grey } } })
    .png()
    .toBuffer();
}

describe("an ONNX detector on the server", () => {
  it("reads a YOLOv8-shaped answer as boxes on the frame, through the letterbox, with the label list's names", async () => {
    // A 64² model; a 128×64 frame letterboxes to 64×32 at top 16. A forklift at input (32, 32) sized 16×8 is
    // frame (64, 32) sized 32×16.
    const model = yoloDetector([{ cx: 32, cy: 32, w: 16, h: 8, scores: [0.1, 0.9] }], LABELS.length, { inputSize: 64 });
    const detector = await openOnnxDetector(model, { format: "yolo", labels: LABELS, pixelScaling: "unit" });
    try {
      const [found, ...rest] = await detector.detect(await picture(128, 64, 255), 0.3);
      expect(rest).toEqual([]);
      expect(found?.label).toBe("forklift");
      expect(found?.score).toBeCloseTo(0.9);
      expect(found?.box.x_min).toBeCloseTo(48 / 128);
      expect(found?.box.x_max).toBeCloseTo(80 / 128);
      expect(found?.box.y_min).toBeCloseTo(24 / 64);
      expect(found?.box.y_max).toBeCloseTo(40 / 64);
    } finally {
      await detector.close();
    }
  });

  it("letterboxes a phone photo as it is shown: turned upright by its EXIF orientation first", async () => {
    // Stored 128×64 with orientation 6 (turn 90° clockwise): shown 64×128, letterboxed to 32×64 at left 16. A person at
    // input (32, 32) sized 16×8 is x 0.25–0.75, y 0.4375–0.5625 of the upright frame.
    const stored = await sharp({ create: { width: 128, height: 64, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const model = yoloDetector([{ cx: 32, cy: 32, w: 16, h: 8, scores: [0.9, 0] }], LABELS.length, { inputSize: 64 });
    const detector = await openOnnxDetector(model, { format: "yolo", labels: LABELS, pixelScaling: "unit" });
    try {
      const [found] = await detector.detect(stored, 0.3);
      expect(found?.box.x_min).toBeCloseTo(0.25);
      expect(found?.box.x_max).toBeCloseTo(0.75);
      expect(found?.box.y_min).toBeCloseTo(28 / 64);
      expect(found?.box.y_max).toBeCloseTo(36 / 64);
    } finally {
      await detector.close();
    }
  });

  it("feeds the frame's pixels scaled to 0–1: a model gated on brightness finds the box on white and nothing on black", async () => {
    const model = yoloDetector([{ cx: 32, cy: 32, w: 20, h: 20, scores: [0.8, 0] }], LABELS.length, { brightnessGated: true });
    const detector = await openOnnxDetector(model, { format: "yolo", labels: LABELS, pixelScaling: "unit" });
    try {
      // A square frame fills the input: the mean is 1 on white (the score stays 0.8) and 0 on black.
      const onWhite = await detector.detect(await picture(64, 64, 255), 0.3);
      const onBlack = await detector.detect(await picture(64, 64, 0), 0.3);
      expect(onWhite.map((d) => [d.label, Math.round(d.score * 100)])).toEqual([["person", 80]]);
      expect(onBlack).toEqual([]);
    } finally {
      await detector.close();
    }
  });

  it("reads a DETR answer: softmax with a 'no object' class, boxes as fractions of the input, on a dynamic-size input", async () => {
    const model = detrDetector(
      [
        { cx: 0.5, cy: 0.5, w: 0.25, h: 0.5, scores: [6, -4] },
        { cx: 0.2, cy: 0.2, w: 0.1, h: 0.1, scores: [-3, -3] }, // "no object" wins: no box
      ],
      LABELS.length,
      { dynamicInput: true },
    );
    const detector = await openOnnxDetector(model, { format: "detr", labels: LABELS, pixelScaling: "imagenet" });
    try {
      expect(detector.spec).toMatchObject({ inputWidth: 640, inputHeight: 640, inputName: "pixel_values" });
      const found = await detector.detect(await picture(320, 320, 200), 0.5);
      expect(found).toHaveLength(1);
      expect(found[0]!.label).toBe("person");
      expect(found[0]!.score).toBeCloseTo(Math.exp(6) / (Math.exp(6) + Math.exp(-4) + 1), 4);
      expect(found[0]!.box).toEqual({ x_min: 0.375, y_min: 0.25, x_max: 0.625, y_max: 0.75 });
    } finally {
      await detector.close();
    }
  });

  it("checks a model on upload and says what does not fit", async () => {
    const yolo = yoloDetector([{ cx: 10, cy: 10, w: 4, h: 4, scores: [0.9, 0.1] }], LABELS.length);
    await expect(checkOnnxDetector(yolo, { format: "yolo", labels: LABELS, pixelScaling: "unit" })).resolves.toMatchObject({ spec: { inputWidth: 64 } });

    const refusal = (bytes: Uint8Array, choice: Parameters<typeof checkOnnxDetector>[1]) =>
      checkOnnxDetector(bytes, choice).then(
        () => "accepted",
        (error: unknown) => (error instanceof OnnxModelProblem ? error.message : `crashed: ${String(error)}`),
      );
    expect(await refusal(new TextEncoder().encode("not a model"), { format: "yolo", labels: LABELS, pixelScaling: "unit" })).toMatch(
      /^ONNX Runtime cannot open this file as a model/,
    );
    // Three labels for a model that scores two: the output's shape gives it away.
    expect(await refusal(yolo, { format: "yolo", labels: [...LABELS, "dog"], pixelScaling: "unit" })).toMatch(
      /"output0" is \[1, 6, 1\]; a YOLO detector with 3 labels answers \[1, 7, boxes\]/,
    );
    expect(await refusal(yolo, { format: "detr", labels: LABELS, pixelScaling: "unit" })).toMatch(/a DETR-family detector with 2 labels/);
    expect(await refusal(classifierModel(), { format: "yolo", labels: LABELS, pixelScaling: "unit" })).toMatch(/output "probs" is \[1, 1002\]/);
    expect(await refusal(yolo, { format: "yolo", labels: [], pixelScaling: "unit" })).toMatch(/label list is empty/);
  });
});
