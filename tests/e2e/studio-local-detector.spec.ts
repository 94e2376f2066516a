// The local COCO detector in headless Chromium: Vite-bundled like the app, its worker finds the people
// in a fake webcam showing real photos panned across the frame, loads every byte (tfjs, weights, .wasm)
// from the page's own origin, and reports the backend it picked. And an administrator's ONNX model, run by
// onnxruntime-web in the same worker.
import type { Page } from "@playwright/test";
import type { Request, Response } from "express";
import sharp from "sharp";
import type { OnnxDetectorChoice } from "#app/studio/local-vision/detector-types";
import { securityHeaders } from "#server/http/security";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { detrDetector, yoloDetector } from "../support/onnx-model";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { expect, test } from "./fixtures";
import { type Harness, startViteHarness } from "./image-core-harness";

let harness: Harness;

test.describe.configure({ timeout: 60_000 }); // the harness build and the model load take seconds on 2 busy cores
test.beforeAll(async () => {
  [harness] = await Promise.all([startViteHarness("local-detector-harness"), peopleVideoY4m()]);
});
test.afterAll(async () => {
  await harness.close();
});
// The browser starts after beforeAll has written the video (it is launched for the first test's page).
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

/** The headers (CSP first) the app puts on every answer, for a request whose CSP nonce is `nonce`. */
function appSecurityHeaders(nonce: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = { locals: { cspNonce: nonce }, setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
  securityHeaders({ dev: false })({} as Request, response as unknown as Response, () => {});
  return headers;
}

/** Every answer (page, worker script, model, .wasm) carries the app's production security headers, so the worker
 * runs under the CSP it will have in the studio: no eval, WASM compiled under 'wasm-unsafe-eval' only. */
async function underAppCsp(page: Page): Promise<void> {
  const nonce = "bG9jYWwtZGV0ZWN0b3I=";
  await page.route("**/*", async (route) => {
    const response = await route.fetch();
    const isPage = response.headers()["content-type"]?.startsWith("text/html");
    const body = isPage ? Buffer.from((await response.text()).replace("<script ", `<script nonce="${nonce}" `)) : await response.body();
    await route.fulfill({ response, body, headers: { ...response.headers(), ...appSecurityHeaders(nonce) } });
  });
}

test("finds people in the webcam's frames in a worker, under the app's CSP, with no request to another origin", async ({ page }) => {
  await underAppCsp(page);
  const workerCsp = page.waitForResponse((response) => /detector-worker-.*\.js$/.test(response.url()));
  const origin = new URL(harness.url).origin;
  const elsewhere: string[] = [];
  const wasmTypes: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith("data:") && !request.url().startsWith("blob:")) elsewhere.push(request.url());
  });
  page.on("response", (response) => {
    if (response.url().endsWith(".wasm")) wasmTypes.push(response.headers()["content-type"] ?? "");
  });
  await page.goto(harness.url);
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");

  const loaded = await page.evaluate(() => window.localDetectorHarness.load());
  // Headless Chromium here has no WebGPU and only SwiftShader's software WebGL, ~40× slower than WASM:
  // the fastest backend available is WASM.
  expect(loaded.backend).toBe("wasm");
  // Progress while the weights stream in (this server, like ours when it gzips, sends no Content-Length), then 1.
  expect(loaded.progress.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);
  expect(loaded.progress.at(-1)).toBe(1);
  expect(await page.evaluate(() => window.localDetectorHarness.startCamera())).toEqual({ width: 640, height: 360 });

  const { results } = await page.evaluate(() => window.localDetectorHarness.detectFrames(3));
  // The pan passes the gaps between photos too: people in most frames, not necessarily in every one.
  const people = results.flat().filter((detection) => detection.label === "person");
  expect(people.length, JSON.stringify(results)).toBeGreaterThanOrEqual(2);
  for (const { box, score } of people) {
    expect(score).toBeGreaterThanOrEqual(0.3);
    expect(box.x_min).toBeGreaterThanOrEqual(0);
    expect(box.x_max).toBeLessThanOrEqual(1);
    expect(box.y_max - box.y_min).toBeGreaterThan(0.2); // a person in these photos is most of the frame's height
  }
  expect(elsewhere).toEqual([]);
  expect(wasmTypes).toEqual(["application/wasm"]); // one binary (SIMD), streamed with the type it needs
  expect((await workerCsp).headers()["content-security-policy"]).toContain("'wasm-unsafe-eval'");
});

test("runs an administrator's YOLO and DETR models with onnxruntime-web in the worker, under the app's CSP, from this origin", async ({ page }) => {
  // Tiny real ONNX models (tests/support/onnx-model.ts): a 64² YOLOv8-shaped one whose scores follow the picture's
  // brightness, and a DETR-shaped one; a 640×360 frame letterboxes into 64×36 at top 14, so the box at input
  // (24..40, 28..36) is the frame's (0.375..0.625, 0.389..0.611).
  const models: Record<string, Uint8Array> = {
    "/uploaded/yolo.onnx": yoloDetector([{ cx: 32, cy: 32, w: 16, h: 8, scores: [0.1, 0.9] }], 2, { brightnessGated: true }),
    "/uploaded/detr.onnx": detrDetector([{ cx: 0.5, cy: 0.5, w: 0.25, h: 0.125, scores: [5, -5] }], 2, { dynamicInput: true }),
  };
  const pictures: Record<string, Buffer> = {
    "/pictures/white.png": await sharp({ create: { width: 640, height: 360, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer(),
    "/pictures/black.png": await sharp({ create: { width: 640, height: 360, channels: 3, background: "#000000" } })
      .png()
      .toBuffer(),
  };
  await underAppCsp(page);
  await page.route("**/uploaded/*.onnx", (route) =>
    route.fulfill({ body: Buffer.from(models[new URL(route.request().url()).pathname]!), contentType: "application/octet-stream" }),
  );
  await page.route("**/pictures/*.png", (route) => route.fulfill({ body: pictures[new URL(route.request().url()).pathname]!, contentType: "image/png" }));
  const origin = new URL(harness.url).origin;
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith("data:") && !request.url().startsWith("blob:")) elsewhere.push(request.url());
  });
  const choice = (format: "yolo" | "detr", path: string): OnnxDetectorChoice => ({
    kind: "onnx",
    id: format,
    name: `tiny ${format}`,
    format,
    pixelScaling: "unit",
    labels: ["person", "forklift"],
    bytes: models[path]!.byteLength,
    modelUrl: `${origin}${path}`,
  });

  await page.goto(harness.url);
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");
  const loaded = await page.evaluate((model) => window.localDetectorHarness.load({ model }), choice("yolo", "/uploaded/yolo.onnx"));
  expect(loaded.backend).toBe("wasm");
  expect(loaded.progress.at(-1)).toBe(1);
  const detect = (picture: string) => page.evaluate((url) => window.localDetectorHarness.detectPicture(url, 640, { minScore: 0.3 }), picture);
  const onWhite = (await detect("/pictures/white.png")).detections;
  expect(onWhite.map((d) => d.label)).toEqual(["forklift"]);
  // Pixels reach the model as 0..1 with the letterbox's grey (114) around the frame: the mean brightness is
  // (36 rows of 1 + 28 rows of 114/255) / 64 = 0.758, so the gated score is 0.9 × 0.758.
  expect(onWhite[0]!.score).toBeCloseTo(0.9 * ((36 + (28 * 114) / 255) / 64), 2);
  expect(onWhite[0]!.box.x_min).toBeCloseTo(0.375, 3);
  expect(onWhite[0]!.box.x_max).toBeCloseTo(0.625, 3);
  expect(onWhite[0]!.box.y_min).toBeCloseTo(14 / 36, 3);
  expect(onWhite[0]!.box.y_max).toBeCloseTo(22 / 36, 3);
  expect((await detect("/pictures/black.png")).detections).toEqual([]);

  // Another model: a new worker loads it (as the studio does when the administrator's choice changes).
  await page.evaluate(() => window.localDetectorHarness.dispose());
  await page.evaluate((model) => window.localDetectorHarness.load({ model }), choice("detr", "/uploaded/detr.onnx"));
  const detr = (await detect("/pictures/black.png")).detections;
  expect(detr.map((d) => d.label)).toEqual(["person"]);
  // Dynamic axes: a 640² input, where the frame sits at top 140; the box's fractions of the input become the frame's.
  expect(detr[0]!.box.x_min).toBeCloseTo(0.375, 3);
  expect(detr[0]!.box.y_min).toBeCloseTo((0.4375 * 640 - 140) / 360, 3);
  expect(detr[0]!.box.y_max).toBeCloseTo((0.5625 * 640 - 140) / 360, 3);
  expect(elsewhere).toEqual([]);
});
