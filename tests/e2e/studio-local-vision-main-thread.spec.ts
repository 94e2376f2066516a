// The worker keeps the main thread free in the real studio: while local detection runs on the people video, every
// frame goes to the detector's worker and not one long task (> 50 ms) is detection's doing on the page's thread.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { addWebcam, expect, signUpInBrowser, test } from "./fixtures";

test.describe.configure({ timeout: 120_000 }); // the model loads and compiles in seconds on 2 busy cores
test.beforeAll(async () => {
  await peopleVideoY4m();
});
// The browser starts after beforeAll has written the video (it is launched for the first test's page).
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

/** What the page records: long tasks, and when a frame went to the detector's worker and when the worker answered. */
interface Recorded {
  longTasks: Array<{ start: number; end: number }>;
  sends: number[];
  answers: number[];
}

declare global {
  interface Window {
    localVisionRecord: Recorded;
  }
}

/**
 * Which long tasks are detection's. A long task counts against detection when it is the task that handed a frame to
 * the worker (grabbing the bitmap, posting it) or the task that took the worker's answer (Comlink's resolve, the
 * tracker, lines and zones, the store update and the synchronous redraw it triggers): all the main-thread work a frame
 * costs, and where inference or any heavy pre/post-processing would show if it ran on the page's thread.
 *
 * Why attribute rather than count every long task, or compare with a window where detection is off: on a loaded
 * 2-core machine the page gets the odd long task from things that are not detection (garbage collection, the video's
 * own work, another process holding the core long enough to stretch a short task past 50 ms), so "no long task at
 * all" is flaky and "no more than with detection off" is statistics. Tying each task to a frame's own send or answer
 * judges only detection's work; and detection moved onto the main thread would not slip through, as it would either
 * make those tasks long on every frame, or send no frame to the worker at all (the wait below would fail).
 */
function detectionLongTasks(recorded: Recorded, from: number): Array<{ start: number; duration: number }> {
  const marks = [...recorded.sends, ...recorded.answers].filter((at) => at >= from);
  return recorded.longTasks
    .filter((task) => task.end >= from && marks.some((at) => at >= task.start && at <= task.end))
    .map((task) => ({ start: Math.round(task.start), duration: Math.round(task.end - task.start) }));
}

const FRAMES = 10;

test("local detection leaves the main thread free: frames go to the worker, no long task is detection's", async ({ page }) => {
  await page.addInitScript(() => {
    const record: Recorded = { longTasks: [], sends: [], answers: [] };
    window.localVisionRecord = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
    }).observe({ type: "longtask", buffered: true });
    // The detector's worker (app/studio/local-vision/detector.ts names it): note each frame posted to it and each
    // answer, from inside the same tasks that do detection's main-thread work.
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (options?.name !== "local-detector") return;
        this.addEventListener("message", () => record.answers.push(performance.now()));
        const post = this.postMessage.bind(this) as (message: unknown, transfer?: Transferable[]) => void;
        this.postMessage = (message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) => {
          const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
          if (list.some((item) => item instanceof ImageBitmap || (typeof VideoFrame !== "undefined" && item instanceof VideoFrame))) {
            record.sends.push(performance.now());
          }
          post(message, list);
        };
      }
    };
  });
  await signUpInBrowser(page);
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  await page.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).check();
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();
  const local = page.getByTestId("local-detection");
  await expect(local.getByTestId("local-backend")).toHaveText("Running on WASM", { timeout: 60_000 });
  // Tracked people drawn: detection is running steadily (the model's first, compiling frames are behind it).
  await expect(page.getByTestId("detection-canvas")).toHaveAttribute("data-labels", /^person #\d+/, { timeout: 45_000 });

  // A window of FRAMES frames through the worker, from now.
  const from = await page.evaluate(() => performance.now());
  await page.waitForFunction(
    ({ from, frames }) => window.localVisionRecord.answers.filter((at) => at >= from).length >= frames && window.localVisionRecord.sends.filter((at) => at >= from).length >= frames,
    { from, frames: FRAMES },
    { timeout: 60_000 },
  );
  // Stop, so the window's long tasks have all been reported by the time they are read (the observer reports a task
  // after it ends; the switch's own tasks come after every task of the window).
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();
  await expect(page.getByRole("switch", { name: "Enable Local Detection" })).toHaveAttribute("aria-checked", "false");
  const recorded = await page.evaluate(() => window.localVisionRecord);

  // Every frame went to the worker, as a transferred bitmap.
  expect(recorded.sends.filter((at) => at >= from).length).toBeGreaterThanOrEqual(FRAMES);
  const until = recorded.answers.filter((at) => at >= from)[FRAMES - 1]!;
  const windowed = { ...recorded, sends: recorded.sends.filter((at) => at <= until), answers: recorded.answers.filter((at) => at <= until) };
  expect(detectionLongTasks(windowed, from), `long tasks on the main thread (all in the window: ${JSON.stringify(recorded.longTasks.filter((t) => t.end >= from))})`).toEqual([]);
});
