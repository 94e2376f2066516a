// The local COCO detector in headless Chromium: Vite-bundled like the app, its worker finds the people
// in a fake webcam showing real photos panned across the frame, loads every byte (tfjs, weights, .wasm)
// from the page's own origin, and reports the backend it picked.
import type { Request, Response } from "express";
import { securityHeaders } from "#server/http/security";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
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

test("finds people in the webcam's frames in a worker, under the app's CSP, with no request to another origin", async ({ page }) => {
  // Every answer (page, worker script, model, .wasm) carries the app's production security headers, so the worker
  // runs under the CSP it will have in the studio: no eval, WASM compiled under 'wasm-unsafe-eval' only.
  const nonce = "bG9jYWwtZGV0ZWN0b3I=";
  await page.route("**/*", async (route) => {
    const response = await route.fetch();
    const isPage = response.headers()["content-type"]?.startsWith("text/html");
    const body = isPage ? Buffer.from((await response.text()).replace("<script ", `<script nonce="${nonce}" `)) : await response.body();
    await route.fulfill({ response, body, headers: { ...response.headers(), ...appSecurityHeaders(nonce) } });
  });
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
