// Local detector benchmark (issue 19): frames per second of the CenterNet worker at 640×360 in headless
// Chromium for each tfjs backend that starts here (software ones included, to show why they are passed
// over), its load time, and the page's long tasks (> 50 ms) while it detects. Targets: ≥ 5 fps on WASM, 0 long tasks.
import { chromium, type Page } from "@playwright/test";
import { DETECTOR_BACKENDS, type DetectorBackend } from "#app/studio/local-vision/detector-types";
import { startViteHarness } from "../tests/e2e/image-core-harness";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../tests/support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../tests/support/people-video";
import { machineLoad, ms, table, verdict } from "./lib";

/** Each backend is timed over about this long (at least 3 frames): software WebGL takes seconds per frame. */
const MEASURE_MS = 10_000;

interface BackendRun {
  backend: DetectorBackend;
  automatic: boolean;
  loadMs?: number;
  framesPerSecond?: number;
  frames?: number;
  longTasks?: number[];
  people?: number;
  failure?: string;
}

async function measure(page: Page, url: string, backends: readonly DetectorBackend[], automatic: boolean): Promise<BackendRun> {
  const backend = backends[0]!;
  await page.goto(url);
  try {
    const loaded = await page.evaluate((options) => window.localDetectorHarness.load(options), automatic ? {} : { backends, allowSoftware: true });
    await page.evaluate(() => window.localDetectorHarness.startCamera());
    const probe = await page.evaluate(() => window.localDetectorHarness.detectFrames(3));
    const frames = Math.max(3, Math.min(60, Math.round((probe.framesPerSecond * MEASURE_MS) / 1000)));
    const run = await page.evaluate((count) => window.localDetectorHarness.detectFrames(count), frames);
    const people = run.results.flat().filter((detection) => detection.label === "person").length;
    return { backend: loaded.backend, automatic, loadMs: loaded.loadMs, framesPerSecond: run.framesPerSecond, frames, longTasks: run.longTasks, people };
  } catch (error) {
    return { backend, automatic, failure: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
}

export async function runLocalVisionDetectorBenchmarks(): Promise<string> {
  const [harness] = await Promise.all([startViteHarness("local-detector-harness"), peopleVideoY4m()]);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] });
  const runs: BackendRun[] = [];
  try {
    // A fresh page (and worker) per backend: tfjs keeps one backend per worker.
    for (const [backends, automatic] of [[DETECTOR_BACKENDS, true], ...DETECTOR_BACKENDS.map((backend) => [[backend], false] as const)] as const) {
      const page = await browser.newPage();
      runs.push(await measure(page, harness.url, backends, automatic));
      await page.close();
    }
  } finally {
    await browser.close();
    await harness.close();
  }
  const wasm = runs.find((run) => run.backend === "wasm" && !run.automatic && run.framesPerSecond !== undefined);
  const chosen = runs.find((run) => run.automatic);
  const longTasks = runs.flatMap((run) => run.longTasks ?? []);
  const rows = runs.map((run) => [
    run.automatic ? `automatic → ${run.failure ? "none" : run.backend}` : run.backend,
    run.failure ? `not available (${run.failure.slice(0, 80)})` : `**${run.framesPerSecond!.toFixed(1)}** over ${run.frames}`,
    run.loadMs === undefined ? "—" : ms(run.loadMs),
    run.longTasks === undefined ? "—" : `${run.longTasks.length}${run.longTasks.length ? ` (longest ${ms(Math.max(...run.longTasks))})` : ""}`,
    run.people === undefined ? "—" : run.people,
  ]);
  return [
    "## Local vision: on-device detector",
    `CenterNet (COCO, 512² input) in a Web Worker on 640×360 frames of a fake webcam panning photos of people; frames detected one after another. ${machineLoad()}`,
    `WASM: **${wasm?.framesPerSecond?.toFixed(1) ?? "—"} frames/s** (target ≥ 5: ${verdict((wasm?.framesPerSecond ?? 0) >= 5)}); ` +
      `automatic choice: **${chosen?.backend ?? "none"}**; main-thread long tasks during detection: **${longTasks.length}** (target 0: ${verdict(longTasks.length === 0)}).`,
    table(["backend", "frames/s", "load (worker, model, warm-up)", "long tasks > 50 ms", "people found"], rows),
  ].join("\n\n");
}
