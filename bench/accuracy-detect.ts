// The accuracy benchmark's detections: the product's detector worker in headless Chromium (as the studio runs it) on
// the real photos and on the clip's frames (decoded by ffmpeg at the studio's rate), cached as JSON so the tracker and
// line figures re-run in seconds. The cache holds every candidate down to CACHE_MIN_SCORE before non-max suppression,
// so thresholds and NMS can be chosen from it without detecting again.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import type { LocalDetection } from "#app/studio/local-vision/detector-types";
import { startViteHarness } from "../tests/e2e/image-core-harness";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";

/** The studio scales the preview to this long edge for local detection (app/studio/ai/ai-engine.ts). */
export const STUDIO_LONG_EDGE = 640;
/**
 * The studio detects as fast as the detector answers (one frame in flight): about 5 frames/s with WASM on a
 * 2-core machine (the local-vision group's figure), so the clip is sampled at that rate.
 */
export const STUDIO_FPS = 5;
/** Candidates kept in the cache: far below any threshold worth trying. */
export const CACHE_MIN_SCORE = 0.05;
/** The model's 512² input: stretching to it is how frames were fed before letterboxing. */
const MODEL_INPUT = 512;

export type Preprocessing = "letterbox" | "stretch";

export interface FrameDetections {
  /** File name (photos) or frame time in ms from the clip's start. */
  frame: string | number;
  /** Wall time of the detector call (transfer to the worker, inference, answer). */
  ms: number;
  detections: LocalDetection[];
}

export interface DetectionCache {
  key: string;
  model: string;
  preprocessing: Preprocessing;
  longEdge: number;
  fps: number | null;
  minScore: number;
  nms: "none";
  frames: FrameDetections[];
}

const repoRoot = path.resolve(import.meta.dirname, "..");
export const CACHE_DIR = path.join(repoRoot, "bench/.cache/accuracy");
/** Another engineer tunes the tracker on the latest detections: a copy goes here when /work/notes exists. */
const SHARED_COPY_DIR = "/work/notes/acc-cache";

/** Changes to the model or its preprocessing code make a new key, so a stale cache is never read. */
function cacheKey(source: string, preprocessing: Preprocessing, fps: number | null): string {
  const code = [
    "app/studio/local-vision/detectors/centernet.ts",
    "app/studio/local-vision/detectors/centernet-run.ts",
    "app/studio/local-vision/letterbox.ts",
    "tests/e2e/local-detector-harness/main.ts",
  ]
    .map((file) => readFileSync(path.join(repoRoot, file)))
    .reduce((hash, bytes) => hash.update(bytes), createHash("sha256"))
    .digest("hex")
    .slice(0, 10);
  return `centernet-${preprocessing}-${STUDIO_LONG_EDGE}${fps ? `-${fps}fps` : ""}-${source}-${code}`;
}

export interface DetectJob {
  source: "photos" | "clip";
  preprocessing: Preprocessing;
  /** The pictures, in order, with what `frame` says about each. */
  pictures: () => Array<{ file: string; frame: string | number }>;
}

/** Cached detections of every job, detecting (in one browser) only those with no fresh cache or when `force`. */
export async function detections(jobs: readonly DetectJob[], force: boolean): Promise<DetectionCache[]> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const keyed = jobs.map((job) => ({ job, key: cacheKey(job.source, job.preprocessing, job.source === "clip" ? STUDIO_FPS : null) }));
  const file = (key: string) => path.join(CACHE_DIR, `${key}.json`);
  const missing = keyed.filter(({ key }) => force || !existsSync(file(key)));
  if (missing.length) {
    const harness = await startViteHarness("local-detector-harness");
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      await page.goto(harness.url);
      await page.evaluate(() => window.localDetectorHarness.load({ backends: ["wasm"] }));
      for (const { job, key } of missing) {
        const cache = await detectAll(page, job, key);
        writeFileSync(file(key), JSON.stringify(cache));
        shareCopy(file(key), job);
      }
    } finally {
      await browser.close();
      await harness.close();
    }
  }
  return keyed.map(({ key }) => JSON.parse(readFileSync(file(key), "utf8")) as DetectionCache);
}

async function detectAll(page: Page, job: DetectJob, key: string): Promise<DetectionCache> {
  const pictures = job.pictures();
  // Pictures are served to the page from disk under a made-up origin path, never copied.
  const byName = new Map(pictures.map((picture, i) => [`/accuracy-picture/${i}${path.extname(picture.file)}`, picture.file]));
  await page.route("**/accuracy-picture/**", (route) => route.fulfill({ path: byName.get(new URL(route.request().url()).pathname)! }));
  const frames: FrameDetections[] = [];
  let i = 0;
  for (const picture of pictures) {
    const url = `/accuracy-picture/${i++}${path.extname(picture.file)}`;
    const stretchTo = job.preprocessing === "stretch" ? MODEL_INPUT : undefined;
    const result = await page.evaluate(
      ({ url, longEdge, minScore, stretchTo }) =>
        // iouThreshold 1: no box overlaps another by more than all of it, so nothing is suppressed.
        window.localDetectorHarness.detectPicture(url, longEdge, { minScore, iouThreshold: 1, maxDetections: 100 }, stretchTo),
      { url, longEdge: STUDIO_LONG_EDGE, minScore: CACHE_MIN_SCORE, stretchTo },
    );
    frames.push({ frame: picture.frame, ms: result.ms, detections: result.detections.map(rounded) });
    if (i % 100 === 0) console.error(`accuracy: ${job.source} (${job.preprocessing}) ${i}/${pictures.length} frames detected`);
  }
  await page.unroute("**/accuracy-picture/**");
  return {
    key,
    model: "centernet",
    preprocessing: job.preprocessing,
    longEdge: STUDIO_LONG_EDGE,
    fps: job.source === "clip" ? STUDIO_FPS : null,
    minScore: CACHE_MIN_SCORE,
    nms: "none",
    frames,
  };
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
export function rounded(d: LocalDetection): LocalDetection {
  const { x_min, y_min, x_max, y_max } = d.box;
  return { label: d.label, score: round4(d.score), box: { x_min: round4(x_min), y_min: round4(y_min), x_max: round4(x_max), y_max: round4(y_max) } };
}

function shareCopy(file: string, job: DetectJob): void {
  if (!existsSync(path.dirname(SHARED_COPY_DIR))) return;
  mkdirSync(SHARED_COPY_DIR, { recursive: true });
  copyFileSync(file, path.join(SHARED_COPY_DIR, `latest-${job.source}-${job.preprocessing}.json`));
}

/** The clip's frames at the studio's rate, decoded by ffmpeg at the clip's own size (the page scales them as the studio does). */
export function decodeClip(video: string): { files: Array<{ file: string; frame: number }>; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "framewise-accuracy-"));
  execFileSync("ffmpeg", ["-v", "error", "-i", video, "-vf", `fps=${STUDIO_FPS}`, path.join(dir, "%05d.png")]);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".png"))
    .sort()
    .map((name, i) => ({ file: path.join(dir, name), frame: Math.round((i * 1000) / STUDIO_FPS) }));
  return { files, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
