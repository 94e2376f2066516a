// The accuracy benchmark's "bring your own model" detections: an administrator's ONNX detector (BENCH_ONNX_MODEL)
// run through the server's runtime (server/local-detector/onnx-detector.ts, onnxruntime-node on one thread) on the same
// pictures as the built-in detector, each first scaled to the studio's long edge as the studio scales its preview, then
// letterboxed into the model's input by the runtime as the browser does. Browsers run the same model through
// onnxruntime-web with the same reader (onnx-layout.ts), so the boxes compare; the time a picture takes does not quite.
// Cached like the built-in's, keyed by the model file's bytes, its settings and the preprocessing code.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { COCO_LABELS } from "#app/studio/local-vision/coco-labels";
import { ONNX_FORMATS, PIXEL_SCALINGS, type OnnxFormat, type PixelScaling } from "#app/studio/local-vision/detectors/onnx-layout";
import { fitLongEdge } from "#app/studio/frames/frame-grabber";
import { openOnnxDetector } from "#server/local-detector/onnx-detector";
import { CACHE_DIR, CACHE_MIN_SCORE, rounded, STUDIO_FPS, STUDIO_LONG_EDGE, type DetectionCache, type FrameDetections } from "./accuracy-detect";

export interface OnnxBenchModel {
  file: string;
  format: OnnxFormat;
  labels: readonly string[];
  /** Where the labels came from, for the report. */
  labelSource: string;
  pixelScaling: PixelScaling;
}

/** The model BENCH_ONNX_MODEL names (with BENCH_ONNX_FORMAT, BENCH_ONNX_LABELS, BENCH_ONNX_SCALING), or null. */
export function onnxModelFromEnv(env: NodeJS.ProcessEnv = process.env): OnnxBenchModel | null {
  const file = env.BENCH_ONNX_MODEL;
  if (!file) return null;
  if (!existsSync(file)) throw new Error(`BENCH_ONNX_MODEL: no file at ${file}`);
  const format = (env.BENCH_ONNX_FORMAT || "yolo") as OnnxFormat;
  if (!ONNX_FORMATS.includes(format)) throw new Error(`BENCH_ONNX_FORMAT is ${format}; one of ${ONNX_FORMATS.join(", ")}`);
  const pixelScaling = (env.BENCH_ONNX_SCALING || "unit") as PixelScaling;
  if (!PIXEL_SCALINGS.includes(pixelScaling)) throw new Error(`BENCH_ONNX_SCALING is ${pixelScaling}; one of ${PIXEL_SCALINGS.join(", ")}`);
  const labelsFile = env.BENCH_ONNX_LABELS;
  const labels = labelsFile
    ? readFileSync(labelsFile, "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
    : COCO_LABELS;
  return { file: path.resolve(file), format, labels, labelSource: labelsFile ? path.basename(labelsFile) : "COCO's 80", pixelScaling };
}

/** The code that turns a picture into this model's boxes: a change to it makes a new cache key. */
const PREPROCESSING_CODE = [
  "server/local-detector/onnx-detector.ts",
  "app/studio/local-vision/detectors/onnx-layout.ts",
  "app/studio/local-vision/letterbox.ts",
  "bench/accuracy-onnx.ts",
];
const repoRoot = path.resolve(import.meta.dirname, "..");

function cacheKey(model: OnnxBenchModel, source: string, fps: number | null): string {
  const modelHash = createHash("sha256").update(readFileSync(model.file)).digest("hex").slice(0, 12);
  const code = PREPROCESSING_CODE.map((file) => readFileSync(path.join(repoRoot, file)))
    .reduce((hash, bytes) => hash.update(bytes), createHash("sha256").update(JSON.stringify([model.format, model.pixelScaling, model.labels])))
    .digest("hex")
    .slice(0, 10);
  return `onnx-${modelHash}-${STUDIO_LONG_EDGE}${fps ? `-${fps}fps` : ""}-${source}-${code}`;
}

export interface OnnxJob {
  source: "photos" | "clip";
  pictures: () => Array<{ file: string; frame: string | number }>;
}

/** Cached detections of the model for every job, detecting those with no fresh cache (or all when `force`). */
export async function onnxDetections(model: OnnxBenchModel, jobs: readonly OnnxJob[], force: boolean): Promise<DetectionCache[]> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const keyed = jobs.map((job) => ({ job, key: cacheKey(model, job.source, job.source === "clip" ? STUDIO_FPS : null) }));
  const file = (key: string) => path.join(CACHE_DIR, `${key}.json`);
  const missing = keyed.filter(({ key }) => force || !existsSync(file(key)));
  if (missing.length) {
    const detector = await openOnnxDetector(readFileSync(model.file), model, { threads: 1 });
    try {
      for (const { job, key } of missing) {
        const frames: FrameDetections[] = [];
        const pictures = job.pictures();
        for (const picture of pictures) {
          const frame = await studioFrame(picture.file);
          const started = performance.now();
          const found = await detector.detect(frame, CACHE_MIN_SCORE);
          frames.push({ frame: picture.frame, ms: performance.now() - started, detections: found.map(rounded) });
          if (frames.length % 100 === 0) console.error(`accuracy: ${job.source} (ONNX) ${frames.length}/${pictures.length} frames detected`);
        }
        const cache: DetectionCache = {
          key,
          model: `onnx:${path.basename(model.file)}`,
          preprocessing: "letterbox",
          longEdge: STUDIO_LONG_EDGE,
          fps: job.source === "clip" ? STUDIO_FPS : null,
          minScore: CACHE_MIN_SCORE,
          nms: "none",
          frames,
        };
        writeFileSync(file(key), JSON.stringify(cache));
      }
    } finally {
      await detector.close();
    }
  }
  return keyed.map(({ key }) => JSON.parse(readFileSync(file(key), "utf8")) as DetectionCache);
}

/** The picture scaled to the studio's long edge (a lossless PNG, so the runtime sees exactly those pixels). */
async function studioFrame(file: string): Promise<Buffer> {
  const image = sharp(file).rotate();
  const { width, height } = (await image.metadata()).autoOrient;
  const size = fitLongEdge(width, height, STUDIO_LONG_EDGE);
  return image.resize(size.width, size.height, { fit: "fill" }).png({ compressionLevel: 0 }).toBuffer();
}
