// `npm run bench -- accuracy` (issue 29): the product's own pipeline on real pictures with ground truth, from
// ../shared/data/real (never copied here). The detector (the studio's worker in headless Chromium) on 10 COCO photos:
// recall and precision per class at IoU ≥ 0.5 over score thresholds; and on the indoor clip at the studio's frame
// size and rate, through the studio's scene (tracker + line counter) with a line where the people were counted by eye.
// The engine before the detector calibration runs beside the current one: its preprocessing (frames stretched to the
// model's square) and NMS (one pass over every class at IoU 0.5, score ≥ 0.3) are kept here as a named variant, and
// BENCH_BASELINE_DIR=<another checkout> adds that checkout's tracker and line counter, and BENCH_ONNX_MODEL=<file.onnx>
// an administrator's ONNX detector beside the built-in one (accuracy-onnx.ts).
// Detections are cached in bench/.cache/accuracy (keyed by model, preprocessing, size, rate and the detector's code);
// BENCH_REDETECT=1 detects again.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_DETECT_OPTIONS, type LocalDetection } from "#app/studio/local-vision/detector-types";
import type { Box } from "#app/studio/local-vision/geometry";
import type { LineDefinition } from "#app/studio/local-vision/lines";
import { nonMaxSuppression } from "#app/studio/local-vision/non-max-suppression";
import { TRACKER_MIN_SCORE } from "#app/studio/local-vision/tracker";
import { shown } from "#app/studio/local-vision/local-vision-controller";
import { createScene } from "#app/studio/local-vision/scene";
import { onnxDetections, onnxModelFromEnv, type OnnxBenchModel } from "./accuracy-onnx";
import { decodeClip, detections, STUDIO_FPS, STUDIO_LONG_EDGE, type DetectionCache, type DetectJob, type FrameDetections } from "./accuracy-detect";
import { peopleInView, precision, recall, scorePass, scorePhotos, type ClipTruth, type CrossingEvent, type PhotoTruth } from "./accuracy-score";
import { machineLoad, table } from "./lib";
import { PEOPLE_CLIP, realDataDir } from "../tests/support/real-data";

const CLIP = PEOPLE_CLIP;
const PASSES = 3;
const THRESHOLDS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5];
const NMS_IOUS = [0.4, 0.5, 0.6, 0.7];
/** The clip's line: x = 0.75, full height, drawn bottom to top so that left→right is the product's `in`. */
const LINE: LineDefinition = { id: "V75", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] };

interface DetectorEngine {
  name: string;
  preprocessing: DetectionCache["preprocessing"];
  /** From every cached candidate to what the detector hands the studio (at its own threshold and NMS IoU unless given). */
  pick(candidates: LocalDetection[], minScore?: number, nmsIou?: number): LocalDetection[];
  minScore: number;
  /** The floor of what the studio hands its tracker (weak boxes only keep existing tracks alive). */
  trackerFloor: number;
  /** An ONNX model's detections instead of the built-in CenterNet's. */
  onnx?: OnnxBenchModel;
}

/** The detector before issue 29: one NMS pass over every class, boxes overlapping a better one by more than 0.5 dropped. */
function classBlindNms(candidates: readonly LocalDetection[], minScore: number): LocalDetection[] {
  const kept: LocalDetection[] = [];
  for (const candidate of [...candidates].filter((d) => d.score >= minScore).sort((a, b) => b.score - a.score)) {
    if (kept.length >= 50) break;
    if (kept.every((other) => overlap(other.box, candidate.box) <= 0.5)) kept.push(candidate);
  }
  return kept;
}
const overlap = (a: Box, b: Box) => {
  const w = Math.min(a.x_max, b.x_max) - Math.max(a.x_min, b.x_min);
  const h = Math.min(a.y_max, b.y_max) - Math.max(a.y_min, b.y_min);
  if (w <= 0 || h <= 0) return 0;
  const area = (box: Box) => (box.x_max - box.x_min) * (box.y_max - box.y_min);
  return (w * h) / (area(a) + area(b) - w * h);
};

/** The worker's own selection (detector-worker.ts): the score floor, then the product's NMS. */
const workerPick = (c: LocalDetection[], minScore = DEFAULT_DETECT_OPTIONS.minScore, nmsIou = DEFAULT_DETECT_OPTIONS.iouThreshold) =>
  nonMaxSuppression(
    c.filter((d) => d.score >= minScore),
    nmsIou,
    DEFAULT_DETECT_OPTIONS.maxDetections,
  );

const ENGINES: DetectorEngine[] = [
  { name: "before (stretched, class-blind NMS)", preprocessing: "stretch", minScore: 0.3, trackerFloor: 0.3, pick: (c, minScore = 0.3) => classBlindNms(c, minScore) },
  {
    name: "now (letterboxed, per-class NMS)",
    preprocessing: "letterbox",
    minScore: DEFAULT_DETECT_OPTIONS.minScore,
    trackerFloor: TRACKER_MIN_SCORE,
    pick: workerPick,
  },
];
const CURRENT = ENGINES.at(-1)!;

/** An administrator's ONNX detector, its candidates selected as the worker selects the built-in's. */
function onnxEngine(model: OnnxBenchModel): DetectorEngine {
  const name = `ONNX ${path.basename(model.file)} (${model.format}, ${model.pixelScaling}, ${model.labelSource} labels)`;
  return { name, preprocessing: "letterbox", minScore: DEFAULT_DETECT_OPTIONS.minScore, trackerFloor: TRACKER_MIN_SCORE, pick: workerPick, onnx: model };
}

type SceneFactory = typeof createScene;

async function baselineScene(): Promise<{ dir: string; createScene: SceneFactory } | null> {
  const dir = process.env.BENCH_BASELINE_DIR;
  if (!dir) return null;
  const module = (await import(pathToFileURL(path.resolve(dir, "app/studio/local-vision/scene.ts")).href)) as { createScene: SceneFactory };
  return { dir, createScene: module.createScene };
}

export async function runAccuracyBenchmarks(): Promise<string> {
  const heading = "## Accuracy on real pictures";
  const data = realDataDir();
  if (!data) {
    const message = "the real test material (../shared/data/real, see its README) is not beside this checkout: accuracy not measured";
    console.error(`accuracy: ${message}`);
    return `${heading}\n\nSkipped: ${message}.`;
  }
  const photosDir = path.join(data, "images");
  const photoTruth = JSON.parse(readFileSync(path.join(photosDir, "ground_truth.json"), "utf8")) as PhotoTruth;
  const clipTruth = JSON.parse(readFileSync(path.join(data, CLIP.replace(/\.mp4$/, ".gt.json")), "utf8")) as ClipTruth;
  let clip: ReturnType<typeof decodeClip> | undefined;
  const clipFrames = () => (clip ??= decodeClip(path.join(data, CLIP))).files;
  const photoFrames = () =>
    readdirSync(photosDir)
      .filter((name) => name.endsWith(".jpg"))
      .sort()
      .map((name) => ({ file: path.join(photosDir, name), frame: name }));
  const jobs: DetectJob[] = ENGINES.flatMap((engine) => [
    { source: "photos" as const, preprocessing: engine.preprocessing, pictures: photoFrames },
    { source: "clip" as const, preprocessing: engine.preprocessing, pictures: clipFrames },
  ]);
  const onnx = onnxModelFromEnv();
  const engines = onnx ? [...ENGINES, onnxEngine(onnx)] : ENGINES;
  const redetect = process.env.BENCH_REDETECT === "1";
  let caches: DetectionCache[];
  let onnxCaches: DetectionCache[] = [];
  try {
    caches = await detections(jobs, redetect);
    if (onnx) {
      const sources = [
        { source: "photos" as const, pictures: photoFrames },
        { source: "clip" as const, pictures: clipFrames },
      ];
      onnxCaches = await onnxDetections(onnx, sources, redetect);
    }
  } finally {
    clip?.cleanup();
  }
  const cacheOf = (engine: DetectorEngine, source: string) =>
    engine.onnx ? onnxCaches[source === "photos" ? 0 : 1]! : caches[jobs.findIndex((j) => j.source === source && j.preprocessing === engine.preprocessing)]!;
  const baseline = await baselineScene();
  return [
    heading,
    `The product's CenterNet worker (WASM) in headless Chromium on frames scaled to a ${STUDIO_LONG_EDGE} px long edge as the studio scales its preview; ` +
      `"before" is the detector as it was before issue 29 (frames stretched to the model's square, one NMS pass over all classes, score ≥ 0.3). ${machineLoad()}`,
    onnx
      ? `The ONNX model (BENCH_ONNX_MODEL) runs in Node through onnxruntime-node on one thread, on the same ${STUDIO_LONG_EDGE} px frames letterboxed into its input ` +
        "as the browser letterboxes them, its candidates selected as the worker selects the built-in's (score floor, per-class NMS); browsers run the same model " +
        "through onnxruntime-web, so its boxes compare and its times are a CPU thread's, not a browser's."
      : "",
    photosSection(
      engines.map((engine) => ({ engine, frames: cacheOf(engine, "photos").frames })),
      photoTruth,
    ),
    nmsSection(CURRENT, cacheOf(CURRENT, "photos").frames, cacheOf(CURRENT, "clip").frames, photoTruth, clipTruth),
    clipSection(
      engines.map((engine) => ({ engine, frames: cacheOf(engine, "clip").frames })),
      clipTruth,
      baseline,
    ),
  ]
    .filter(Boolean)
    .join("\n\n");
}

const pct = (value: number) => `${Math.round(value * 100)} %`;

function photosSection(runs: Array<{ engine: DetectorEngine; frames: FrameDetections[] }>, truth: PhotoTruth): string {
  const sweep = THRESHOLDS.map((threshold) => [
    `≥ ${threshold}`,
    ...runs.map(({ engine, frames }) => {
      const person = scorePhotos(frames, truth, (d) => engine.pick(d, threshold)).get("person");
      return `${pct(recall(person))} / ${pct(precision(person))}`;
    }),
  ]);
  const scored = runs.map(({ engine, frames }) => scorePhotos(frames, truth, (d) => engine.pick(d)));
  const labels = [...new Set(scored.flatMap((scores) => [...scores.values()].filter((s) => s.truths > 0).map((s) => s.label)))].sort((a, b) =>
    a === "person" ? -1 : b === "person" ? 1 : a.localeCompare(b),
  );
  const perClass = labels.map((label) => [
    label,
    scored[0]!.get(label)?.truths ?? 0,
    ...scored.map((scores) => {
      const s = scores.get(label);
      return `${pct(recall(s))} / ${pct(precision(s))} (${s?.matched ?? 0} of ${s?.detected ?? 0})`;
    }),
  ]);
  const fps = runs.map(({ engine, frames }) => `${engine.name}: ${speed(frames)}`).join(", ");
  return [
    "### Detector on 10 COCO photos (IoU ≥ 0.5; crowd regions neither right nor wrong)",
    `Person recall / precision by score threshold:`,
    table(["score", ...runs.map((r) => r.engine.name)], sweep),
    `Per class at each engine's threshold (${runs.map((r) => `${r.engine.name}: ${r.engine.minScore}`).join(", ")}): recall / precision (true of detected).`,
    table(["class", "annotated", ...runs.map((r) => r.engine.name)], perClass),
    `Detector frames/s on the photos (measured when the detections were cached, a load-dependent figure): ${fps}.`,
  ].join("\n\n");
}

/** The current detector's NMS IoU: what a higher one costs in duplicate boxes (more than one person box while one person is in the clip). */
function nmsSection(engine: DetectorEngine, photos: FrameDetections[], clip: FrameDetections[], truth: PhotoTruth, clipTruth: ClipTruth): string {
  const oneInView = clip.filter((f) => clipTruth.people.some((p) => Number(f.frame) >= p.enters_s[1] * 1000 && Number(f.frame) <= (p.gone_by_s - 1) * 1000));
  const rows = NMS_IOUS.map((nmsIou) => {
    const person = scorePhotos(photos, truth, (d) => engine.pick(d, undefined, nmsIou)).get("person");
    const doubled = oneInView.filter((f) => engine.pick(f.detections, undefined, nmsIou).filter((d) => d.label === "person").length > 1).length;
    return [
      `${nmsIou}${nmsIou === DEFAULT_DETECT_OPTIONS.iouThreshold ? " (chosen)" : ""}`,
      `${pct(recall(person))} / ${pct(precision(person))}`,
      `${doubled} of ${oneInView.length}`,
    ];
  });
  return [
    `### Non-max suppression (${engine.name}, score ≥ ${engine.minScore})`,
    "Boxes of one class overlapping a better one by more than the IoU are dropped: a higher IoU keeps people in a group apart, at the risk of two boxes on one person.",
    table(["NMS IoU", "photos: person recall / precision", "clip: frames with two person boxes while one person is in view"], rows),
  ].join("\n\n");
}

/** Frames/s and the mean ms a picture took. */
function speed(frames: readonly FrameDetections[]): string {
  const ms = frames.reduce((sum, f) => sum + f.ms, 0) / frames.length;
  return `${(1000 / ms).toFixed(1)} (${Math.round(ms)} ms a picture)`;
}

function clipSection(runs: Array<{ engine: DetectorEngine; frames: FrameDetections[] }>, truth: ClipTruth, baseline: Awaited<ReturnType<typeof baselineScene>>): string {
  const expected = truth.lines.V75!.counts;
  const frameMs = 1000 / STUDIO_FPS;
  const rows: Array<Array<string | number>> = [];
  for (const { engine, frames } of runs) {
    const scenes: Array<[string, SceneFactory]> = [["this checkout", createScene]];
    if (baseline) scenes.push([`baseline (${path.basename(baseline.dir)})`, baseline.createScene]);
    for (const [code, makeScene] of scenes) {
      const scene = makeScene({ lines: [LINE] });
      const passes = [];
      const countErrors: number[] = [];
      for (let pass = 0; pass < PASSES; pass++) {
        const passStart = pass * frames.length * frameMs;
        const events: CrossingEvent[] = [];
        for (const frame of frames) {
          const at = passStart + Number(frame.frame);
          const people = engine.pick(frame.detections, engine.trackerFloor).filter((d) => d.label === "person");
          const { tracks, events: frameEvents } = scene.step(people, at);
          for (const event of frameEvents) if (event.type === "line.crossed") events.push({ at, direction: event.direction });
          const inView = peopleInView(truth, Number(frame.frame));
          // The studio's live people count: the person tracks it shows.
          if (inView !== null) countErrors.push(tracks.filter((t) => t.label === "person" && shown(t)).length - inView);
        }
        passes.push(scorePass(events, truth, passStart));
      }
      rows.push([
        engine.name,
        code,
        passes.map((p) => `${p.leftToRight}/${expected.left_to_right}`).join(", "),
        passes.map((p) => `${p.rightToLeft}/${expected.right_to_left}`).join(", "),
        passes.reduce((sum, p) => sum + p.falseCrossings, 0),
        passes.reduce((sum, p) => sum + p.missed, 0),
        `${pct(countErrors.filter((e) => e === 0).length / countErrors.length)} (${countErrors.filter((e) => e < 0).length} under, ${countErrors.filter((e) => e > 0).length} over)`,
      ]);
    }
  }
  const seen = runs.map(({ engine, frames }) => `${engine.name}: ${pct(personSeenShare(frames, truth, engine))}`).join(", ");
  const fps = runs.map(({ engine, frames }) => `${engine.name}: ${speed(frames)}`).join(", ");
  return [
    `### Indoor clip, line x = 0.75 (${PASSES} passes at ${STUDIO_FPS} frames/s, the studio's default line settings)`,
    table(["detector", "tracker + lines", "left→right per pass", "right→left per pass", `false (${PASSES} passes)`, `missed (${PASSES} passes)`, "live people count right"], rows),
    "Live people count: the frames where the studio's count of people in view (the person tracks it shows) equals the ground truth's, leaving out the second around each entry and exit.",
    `Frames with a person in view (entry to exit by the ground truth) where the detector boxed a person: ${seen}.`,
    `Detector frames/s on the clip (measured when the detections were cached, a load-dependent figure): ${fps}.`,
    baseline ? "" : "Set BENCH_BASELINE_DIR to another checkout (e.g. a worktree of main) to add its tracker and line counter.",
  ]
    .filter(Boolean)
    .join("\n\n");
}

function personSeenShare(frames: readonly FrameDetections[], truth: ClipTruth, engine: DetectorEngine): number {
  const people = truth.people.map((p) => ({ from: p.enters_s[1] * 1000, to: (p.gone_by_s - 1) * 1000 }));
  const inView = frames.filter((f) => people.some((p) => Number(f.frame) >= p.from && Number(f.frame) <= p.to));
  return inView.filter((f) => engine.pick(f.detections).some((d) => d.label === "person")).length / Math.max(1, inView.length);
}
