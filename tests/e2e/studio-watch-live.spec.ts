// An IP camera the server watches with local vision, as a studio user meets it (issue 30): the studio draws the
// server's tracks and loads no detector of its own for that camera. It needs a real pipeline, so this file runs its
// own app (pipelines on) on its own database, with an administrator's ONNX detector that sees a forklift in the
// middle of any picture (so what the server tracks is known), and the fake IP camera on loopback.
import type { Page } from "@playwright/test";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { yoloDetector } from "../support/onnx-model";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import { expect, signUpInBrowser, test } from "./fixtures";

const ADMIN = { username: "watch_live_admin", password: "watch-live-password" };
let app: TestApp;
let camera: FakeIpCamera;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  camera = await startFakeIpCamera();
  app = await startApp({
    DATABASE_URL: await createOwnDatabase(process.env.E2E_DATABASE_URL!),
    DATA_DIR: tempDir("e2e-watch-live"),
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    LOCAL_VISION_DETECTOR_THREADS: "1",
  });
  const signup = await fetch(`${app.url}/api/auth/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  expect(signup.status).toBe(201);
  const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
  const form = new FormData();
  form.set("name", "Warehouse");
  form.set("format", "yolo");
  form.set("pixelScaling", "unit");
  form.set("labels", "person\nforklift");
  form.set("activate", "true");
  const model = yoloDetector([{ cx: 32, cy: 32, w: 16, h: 24, scores: [0.05, 0.9] }], 2);
  form.set("file", new Blob([Buffer.from(model)]), "warehouse.onnx");
  const uploaded = await fetch(`${app.url}/api/admin/detector-models`, { method: "POST", headers: { cookie, origin: app.url }, body: form });
  expect(uploaded.status, await uploaded.text()).toBe(201);
});

test.afterAll(async () => {
  await app?.stop();
  await camera?.close();
});

/** Signs up in the browser and adds the fake camera with a watch on it, through the API as the studio would. */
async function watchedCamera(page: Page): Promise<string> {
  await page.goto(app.url);
  await signUpInBrowser(page);
  const origin = { origin: app.url };
  const added = await page.request.post(`${app.url}/api/cameras/ip`, {
    headers: origin,
    data: { name: "Dock", streamUrl: camera.rtspUrl("/2").replace("rtsp://", `rtsp://${camera.username}:${camera.password}@`) },
  });
  expect(added.status(), await added.text()).toBe(201);
  const { id } = (await added.json()) as { id: string };
  const watched = await page.request.put(`${app.url}/api/cameras/${id}/watch`, { headers: origin, data: { enabled: true, labels: ["forklift"], fps: 5, width: 640 } });
  expect(watched.status(), await watched.text()).toBe(200);
  return id;
}

for (const viewport of [
  { name: "desktop", size: { width: 1440, height: 900 }, touch: false },
  { name: "phone", size: { width: 390, height: 844 }, touch: true },
]) {
  test(`${viewport.name}: the studio shows the server's tracks for a watched IP camera and runs no detector of its own`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: app.url, viewport: viewport.size, hasTouch: viewport.touch });
    const page = await context.newPage();
    const modelFetches: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/local-detector/model") || /centernet|\.onnx|tfjs-backend-wasm/.test(request.url())) modelFetches.push(request.url());
    });
    await watchedCamera(page);
    await page.reload();
    // The Detections tab: the side panel's on a desktop, inside the AI sheet on a phone.
    const tab = page.getByRole("tab", { name: "Detections" });
    if (viewport.touch) await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).click();
    await tab.filter({ visible: true }).first().click();
    await page.getByRole("radio", { name: "Local (no key, 2 kinds of object)" }).filter({ visible: true }).check();
    await page.getByTestId("local-classes").filter({ visible: true }).getByRole("checkbox", { name: "forklift" }).check();
    await page.getByRole("switch", { name: "Enable Local Detection" }).filter({ visible: true }).click();
    // The studio follows the server's pipeline for this camera: the server's forklift track is drawn.
    await expect(page.getByTestId("local-backend").filter({ visible: true })).toHaveText("On the server (this camera is watched with local vision)", { timeout: 30_000 });
    await expect(page.getByTestId("local-status").filter({ visible: true })).toContainText("1 found", { timeout: 30_000 });
    await expect(page.getByTestId("detection-canvas").filter({ visible: true })).toHaveAttribute("data-labels", /^forklift #\d+$/, { timeout: 30_000 });
    // The server detected it: this browser fetched no model and started no detector.
    expect(modelFetches).toEqual([]);
    await context.close();
  });
}
