// Local detector benchmark (issue 19): frames per second of the CenterNet worker at 640×360 in headless
// Chromium for each tfjs backend that starts here (software ones included, to show why they are passed
// over), its load time, and the page's long tasks (> 50 ms) while it detects. Targets: ≥ 5 fps on WASM, 0 long tasks.
// On a shared machine the frame rate is the worker's share of the cores, so a Chromium trace of the run also gives
// the worker's CPU per frame (the rate it would reach on a core of its own) and the page's main-thread CPU per frame.
import { chromium, type Browser, type Page } from "@playwright/test";
import { DETECTOR_BACKENDS, type DetectorBackend } from "#app/studio/local-vision/detector-types";
import { startViteHarness } from "../tests/e2e/image-core-harness";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../tests/support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../tests/support/people-video";
import { machineLoad, ms, table, verdict } from "./lib";

/** Each backend is timed over about this long (at least 3 frames): software WebGL takes seconds per frame. */
const MEASURE_MS = 10_000;

export interface BackendRun {
  backend: DetectorBackend;
  automatic: boolean;
  loadMs?: number;
  framesPerSecond?: number;
  frames?: number;
  longTasks?: number[];
  people?: number;
  /** From the trace: CPU (thread time) per frame on the detector's worker thread(s) and on the page's main thread. */
  workerCpuMs?: number;
  mainCpuMs?: number;
  failure?: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

/** CPU (ms) of every top-level task on the threads whose name matches (in the process `pid`, if given), from a Chromium trace. */
function threadCpuMs(events: readonly TraceEvent[], threadName: RegExp, pid?: number): number {
  const threads = new Set(
    events.filter((e) => e.ph === "M" && e.name === "thread_name" && threadName.test(e.args?.name ?? "") && (pid === undefined || e.pid === pid)).map((e) => `${e.pid}/${e.tid}`),
  );
  let micros = 0;
  for (const e of events) if (e.name === "RunTask" && e.ph === "X" && threads.has(`${e.pid}/${e.tid}`)) micros += e.tdur ?? 0;
  return micros / 1000;
}

async function measure(browser: Browser, page: Page, url: string, backends: readonly DetectorBackend[], automatic: boolean): Promise<BackendRun> {
  const backend = backends[0]!;
  await page.goto(url);
  try {
    const loaded = await page.evaluate((options) => window.localDetectorHarness.load(options), automatic ? {} : { backends, allowSoftware: true });
    await page.evaluate(() => window.localDetectorHarness.startCamera());
    const probe = await page.evaluate(() => window.localDetectorHarness.detectFrames(3));
    const frames = Math.max(3, Math.min(60, Math.round((probe.framesPerSecond * MEASURE_MS) / 1000)));
    await browser.startTracing(page, { categories: ["toplevel", "disabled-by-default-devtools.timeline"] });
    const run = await page.evaluate((count) => window.localDetectorHarness.detectFrames(count), frames);
    const trace = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const people = run.results.flat().filter((detection) => detection.label === "person").length;
    return {
      backend: loaded.backend,
      automatic,
      loadMs: loaded.loadMs,
      framesPerSecond: run.framesPerSecond,
      frames,
      longTasks: run.longTasks,
      people,
      workerCpuMs: threadCpuMs(trace, /^DedicatedWorker/) / frames,
      // The page's renderer: the process its detector worker runs in.
      mainCpuMs: threadCpuMs(trace, /^CrRendererMain$/, trace.find((e) => e.name === "thread_name" && /^DedicatedWorker/.test(e.args?.name ?? ""))?.pid ?? -1) / frames,
    };
  } catch (error) {
    return { backend, automatic, failure: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
}

/**
 * The studio's detector worker on one backend, on a fake webcam playing `video` (a Y4M file): its run, with the
 * worker's CPU per frame. The server's pipeline benchmark (bench/pipeline-detector.ts) sets its detector thread beside it.
 */
export async function measureBrowserDetector(video: string, backend: DetectorBackend): Promise<BackendRun> {
  const harness = await startViteHarness("local-detector-harness");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(video)] });
  try {
    return await measure(browser, await browser.newPage(), harness.url, [backend], false);
  } finally {
    await browser.close();
    await harness.close();
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
      runs.push(await measure(browser, page, harness.url, backends, automatic));
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
    !run.workerCpuMs
      ? "—"
      : // WebGL and WebGPU (software ones here) run their shaders in the GPU process: the worker's CPU is not their cost.
        `${ms(run.workerCpuMs)} ${run.backend === "wasm" ? `(${(1000 / run.workerCpuMs).toFixed(1)} frames/s)` : "(shaders run in the GPU process)"}`,
    run.mainCpuMs === undefined ? "—" : ms(run.mainCpuMs),
    run.people === undefined ? "—" : run.people,
  ]);
  const wasmFreeCore = wasm?.workerCpuMs ? 1000 / wasm.workerCpuMs : 0;
  return [
    "## Local vision: on-device detector",
    `CenterNet (COCO, 512² input) in a Web Worker on 640×360 frames of a fake webcam panning photos of people; frames detected one after another. ${machineLoad()}`,
    `WASM: **${wasm?.framesPerSecond?.toFixed(1) ?? "—"} frames/s** measured (target ≥ 5: ${verdict((wasm?.framesPerSecond ?? 0) >= 5)}), ` +
      `**${wasmFreeCore.toFixed(1)} frames/s** on a core of its own (the worker's CPU per frame; target ≥ 5: ${verdict(wasmFreeCore >= 5)}); ` +
      `automatic choice: **${chosen?.backend ?? "none"}**; main-thread long tasks during detection: **${longTasks.length}** (target 0: ${verdict(longTasks.length === 0)}).`,
    table(
      ["backend", "frames/s", "load (worker, model, warm-up)", "long tasks > 50 ms", "worker CPU per frame (on a free core)", "main-thread CPU per frame", "people found"],
      rows,
    ),
    "Long tasks are the page's (PerformanceObserver, wall time, so other processes' load can stretch a short task past 50 ms); CPU per frame is thread time from a Chromium trace of the same frames.",
  ].join("\n\n");
}
