// Studio benchmarks in headless Chromium with a fake 1280×720 webcam: Capture → thumbnail visible (p50 of
// 20), the real interval of a 20-photo burst at 100 ms, and React commits per second while idle.
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { testCameraPicture, writeY4m } from "../tests/support/y4m";
import { machine, ms, signUpWithWebcam, table, verdict } from "./lib";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../tests/support/chromium";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function runStudioBenchmarks(): Promise<string> {
  const video = path.join(os.tmpdir(), "framewise-bench-camera.y4m");
  await writeY4m(video, await testCameraPicture(1280, 720), 1280, 720);
  const pg = await startTestPostgres();
  const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("bench-studio") });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(video)],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ["camera"] });
    // Counts React commits through the devtools hook, which React calls in production builds too.
    // (A string, not a function: tsx would wrap a function with helpers the page doesn't have.)
    await context.addInitScript(`
      window.__commits = 0;
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true, renderers: new Map(), inject: () => 1,
        onCommitFiberRoot: () => { window.__commits += 1; },
        onCommitFiberUnmount: () => {}, onPostCommitFiberRoot: () => {}, checkDCE: () => {},
      };
    `);
    const page = await context.newPage();
    page.on("dialog", (d) => void d.accept());
    await signUpWithWebcam(page, app.url, "bench_studio", 1280);
    // Let start-up work settle (thumbnail refresh, first photo page) before measuring idle.
    await page.waitForFunction(() => document.querySelector('[data-testid="camera-thumbnail"]') !== null);
    await page.waitForFunction(() => document.querySelector('[data-state="open"][data-swipe-direction]') === null, undefined, { timeout: 10_000 });
    await page.waitForTimeout(1000);

    // Idle: commits per second with the live preview running.
    const idleSeconds = 5;
    const commitsBefore = await page.evaluate(() => (window as unknown as { __commits: number }).__commits);
    await page.waitForTimeout(idleSeconds * 1000);
    const idleCommits = ((await page.evaluate(() => (window as unknown as { __commits: number }).__commits)) - commitsBefore) / idleSeconds;

    // Capture → thumbnail loaded in the strip.
    const commitsBeforeCaptures = await page.evaluate(() => (window as unknown as { __commits: number }).__commits);
    const captureTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      captureTimes.push(
        await page.evaluate(async (count) => {
          const started = performance.now();
          (Array.from(document.querySelectorAll("button")).find((b) => b.textContent?.trim() === "Capture") as HTMLButtonElement).click();
          for (;;) {
            const thumbs = document.querySelectorAll<HTMLImageElement>('[data-testid="photo-thumb"] img');
            if (thumbs.length > count && thumbs[0]!.complete && thumbs[0]!.naturalWidth > 0) return performance.now() - started;
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
        }, i),
      );
    }

    const captureCommits = (await page.evaluate(() => (window as unknown as { __commits: number }).__commits)) - commitsBeforeCaptures;

    // A 20-photo burst at 100 ms: the interval between the starts of consecutive uploads.
    await page.getByRole("radio", { name: "Burst" }).first().click();
    const bar = page.getByRole("region", { name: "Library and capture" });
    await bar.getByRole("spinbutton", { name: "Photos" }).fill("20");
    await bar.getByLabel("Interval").selectOption({ label: "100 ms" });
    await page.evaluate(() => performance.clearMarks("framewise:frame"));
    await page.getByRole("button", { name: "Capture", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="photo-thumb"]').length >= 40, undefined, { timeout: 60_000 });
    const starts = await page.evaluate(() => performance.getEntriesByName("framewise:frame").map((mark) => mark.startTime));
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    const meanGap = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const totalSpan = (starts.at(-1)! - starts[0]!) / (starts.length - 1);

    const p50 = percentile(captureTimes, 50);
    return [
      "## Studio (headless Chromium, fake 1280×720 webcam)",
      "",
      table(
        ["measure", "figure", "target"],
        [
          ["Capture → new thumbnail visible, p50 of 20 (p99)", `${ms(p50)} (${ms(percentile(captureTimes, 99))})`, `≤ 300 ms ${verdict(p50 <= 300)}`],
          [
            "20-photo burst at 100 ms: mean interval between frames taken",
            `${ms(meanGap)} (first→last ${ms(totalSpan)} per photo)`,
            `within 10% of 100 ms ${verdict(Math.abs(totalSpan - 100) <= 10)}`,
          ],
          [
            "React commits per second, idle with a live preview",
            `${idleCommits.toFixed(1)} (the counter saw ${captureCommits} commits during the 20 captures)`,
            `no re-render per video frame (30 fps) ${verdict(idleCommits < 1 && captureCommits > 0)}`,
          ],
        ],
      ),
    ].join("\n");
  } finally {
    await browser.close();
    await app.stop();
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runStudioBenchmarks());
}
