// Studio AI benchmark in headless Chromium with a fake 1920×1080 webcam and the fake Moondream (50 ms
// latency, fixed boxes, in its own process): box detection's frame grab → boxes drawn, p50/p99 of 50
// rounds, split by the product's own performance marks into encode (downscale to 1024 px + JPEG 0.6 +
// data URL), upload+server (request, the app's vision service, the provider's 50 ms, the answer) and
// draw (store update → React commit → canvas drawn); and the JPEG bytes of an AI frame against the same
// picture encoded at full resolution at 0.6, measured side by side in the same page.
//
// The webcam shows a camera-like textured picture (blurred noise under the test markers) rather than
// flat colours, which JPEG would shrink to almost nothing at any size and flatter the byte ratio.
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { testCameraPicture, writeY4m } from "../tests/support/y4m";
import { machine, machineLoad, ms, signUpWithWebcam, startFakeMoondreamProcess, table, verdict } from "./lib";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../tests/support/chromium";

const ROUNDS = 50;
const LATENCY_MS = 50;
const WIDTH = 1920;
const HEIGHT = 1080;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function texturedPicture(): Promise<Buffer> {
  const noise = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .blur(1.2)
    .ensureAlpha(0.35)
    .png()
    .toBuffer();
  // Grain laid over the markers at 35%, as a sensor would.
  return sharp(await testCameraPicture(WIDTH, HEIGHT))
    .removeAlpha()
    .composite([{ input: noise }])
    .png()
    .toBuffer();
}

interface Round {
  grab: number;
  encoded: number;
  detected: number;
  drawn: number;
}

export async function runStudioAiBenchmarks(): Promise<string> {
  const video = path.join(os.tmpdir(), "framewise-bench-ai-camera.y4m");
  await writeY4m(video, await texturedPicture(), WIDTH, HEIGHT);
  const pg = await startTestPostgres();
  const fake = await startFakeMoondreamProcess(LATENCY_MS);
  const app = await startApp({
    DATABASE_URL: await pg.createDatabase(),
    DATA_DIR: tempDir("bench-studio-ai"),
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: "bench-shared-key",
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(video)],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ["camera"] });
    const page = await context.newPage();
    page.on("dialog", (d) => void d.accept());
    const uploadedJpegBytes: number[] = [];
    page.on("request", (request) => {
      if (!request.url().endsWith("/api/moondream/detect")) return;
      const { imageData } = JSON.parse(request.postData() ?? "{}") as { imageData?: string };
      const base64 = imageData?.slice(imageData.indexOf(",") + 1) ?? "";
      uploadedJpegBytes.push(Buffer.from(base64, "base64").length);
    });
    await signUpWithWebcam(page, app.url, "bench_ai", WIDTH);
    await page.waitForFunction(() => document.querySelector('[data-testid="camera-thumbnail"]') !== null);

    // Collect each round's marks as they happen (string: tsx-compiled functions don't survive evaluate).
    await page.evaluate(`
      window.__rounds = [];
      let pending = {};
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const name = e.name.replace("framewise:", "");
          if (name === "grab") pending = { grab: e.startTime };
          else if (name === "encoded" || name === "detected") pending[name] = e.startTime;
          else if (name === "boxes-drawn" && pending.detected !== undefined) { window.__rounds.push({ ...pending, drawn: e.startTime }); pending = {}; }
        }
      }).observe({ type: "mark" });
    `);
    await page.getByRole("tab", { name: "Detections" }).click();
    await page.getByTestId("box-detection").getByLabel("Detection interval").selectOption({ label: "1 s" });
    await page.getByRole("switch", { name: "Enable Box Detection" }).click();
    // Two warm-up rounds (first JPEG encoder use, first render of the canvas), then ROUNDS measured.
    await page.waitForFunction((n) => (window as unknown as { __rounds: Round[] }).__rounds.length >= n, ROUNDS + 2, { timeout: (ROUNDS + 2) * 5000, polling: 500 });
    await page.getByRole("switch", { name: "Enable Box Detection" }).click();
    const rounds = ((await page.evaluate("window.__rounds")) as Round[]).slice(2, ROUNDS + 2);

    // Side by side in the same page: the same picture encoded whole at 0.6 (bytes, and the encode time the
    // downscale saves), the way the grabber does it (canvas → toBlob → data URL).
    const full = (await page.evaluate(`(async () => {
      const video = document.querySelector('[data-testid="preview-video"]');
      const runs = [];
      let bytes = 0;
      for (let i = 0; i < 11; i++) {
        const started = performance.now();
        const canvas = document.createElement("canvas");
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        canvas.getContext("2d").drawImage(video, 0, 0);
        const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.6));
        await new Promise((resolve) => { const reader = new FileReader(); reader.onload = resolve; reader.readAsDataURL(blob); });
        runs.push(performance.now() - started);
        bytes = blob.size;
      }
      return { bytes, runs };
    })()`)) as { bytes: number; runs: number[] };
    const fullBytes = full.bytes;
    const aiBytes = percentile(uploadedJpegBytes, 50);

    const encode = rounds.map((r) => r.encoded - r.grab);
    const upload = rounds.map((r) => r.detected - r.encoded);
    const draw = rounds.map((r) => r.drawn - r.detected);
    const total = rounds.map((r) => r.drawn - r.grab);
    const client = rounds.map((r) => r.encoded - r.grab + (r.drawn - r.detected));
    const clientP50 = percentile(client, 50);
    const ratio = aiBytes / fullBytes;
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const p = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
    return [
      `## Studio AI (headless Chromium, fake ${WIDTH}×${HEIGHT} webcam, fake Moondream with ${LATENCY_MS} ms latency)`,
      "",
      `Measured under ${machineLoad()} (a shared machine: absolute times stretch with it; the side-by-side figures do not).`,
      "",
      table(
        ["measure (p50 / p99 of " + rounds.length + " box detections)", "figure", "target"],
        [
          ["frame grab → boxes drawn", p(total), "—"],
          ["encode: downscale to 1024 px + JPEG 0.6 + data URL", p(encode), `full-resolution encode in the same page: ${ms(percentile(full.runs, 50))}`],
          [`upload + server (includes the provider's ${LATENCY_MS} ms)`, p(upload), "—"],
          ["draw: result → React commit → canvas drawn", p(draw), "—"],
          ["client overhead (encode + draw)", p(client), `p50 ≤ 30 ms ${verdict(clientP50 <= 30)}`],
          [
            `bytes per AI frame (1024×576) vs the same ${WIDTH}×${HEIGHT} frame at 0.6`,
            `${kb(aiBytes)} vs ${kb(fullBytes)} (${(ratio * 100).toFixed(0)}%)`,
            `≤ 1/3 ${verdict(ratio <= 1 / 3)}`,
          ],
        ],
      ),
    ].join("\n");
  } finally {
    await browser.close();
    await app.stop();
    fake.process.kill("SIGTERM");
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runStudioAiBenchmarks());
}
