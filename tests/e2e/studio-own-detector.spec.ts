// An administrator's own ONNX detector, as a studio user meets it: once the administrator makes it the deployment's
// detector, a user's studio loads it (the Detections tab names it and counts its classes, the class picker lists its
// labels) and local detection draws its boxes on the webcam. The detector is deployment-wide: this file runs its own
// app on its own database, so the studio specs running beside it on the shared app never get this model.
import { yoloDetector } from "../support/onnx-model";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import { addWebcam, expect, signUpInBrowser, test } from "./fixtures";

const ADMIN = { username: "own_detector_admin", password: "own-detector-password" };
let app: TestApp;

test.beforeAll(async () => {
  test.setTimeout(90_000); // an app of its own starts in seconds on a loaded machine
  app = await startApp({ DATABASE_URL: await createOwnDatabase(process.env.E2E_DATABASE_URL!), DATA_DIR: tempDir("e2e-own-detector") });
  // Its first account, made from this machine, is its administrator.
  const signup = await fetch(`${app.url}/api/auth/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  expect(signup.status).toBe(201);
});

test.afterAll(async () => {
  await app?.stop();
});

test("a user's studio runs the administrator's model: its name, its classes and its boxes on the webcam", async ({ browser }) => {
  test.setTimeout(90_000);
  // The administrator uploads a YOLO model of two classes that sees a forklift in the middle of any picture.
  const adminContext = await browser.newContext({ baseURL: app.url });
  const login = await adminContext.request.post("/api/auth/login", { data: ADMIN, headers: { origin: app.url } });
  expect(login.status()).toBe(200);
  const model = yoloDetector([{ cx: 32, cy: 32, w: 16, h: 24, scores: [0.05, 0.9] }], 2);
  const uploaded = await adminContext.request.post("/api/admin/detector-models", {
    headers: { origin: app.url },
    multipart: {
      name: "Warehouse",
      format: "yolo",
      pixelScaling: "unit",
      labels: "person\nforklift",
      activate: "true",
      file: { name: "warehouse.onnx", mimeType: "application/octet-stream", buffer: Buffer.from(model) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  await adminContext.close();

  // Another user, in a studio of their own.
  const context = await browser.newContext({ baseURL: app.url, permissions: ["camera"], viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signUpInBrowser(page);
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).first().click();
  await page.getByRole("radio", { name: "Local (no key, 2 kinds of object)" }).check();
  await expect(page.getByTestId("local-model")).toHaveText("Model: Warehouse (your administrator’s)");
  const classes = page.getByTestId("local-classes");
  await expect(classes.getByRole("checkbox")).toHaveCount(2);
  await expect(classes).toContainText("forklift");
  await expect(page.getByPlaceholder("Search 2 objects, e.g. person")).toBeVisible();
  // "person" (the default class) stays picked; pick the forklift too so its boxes are drawn.
  await classes.getByRole("checkbox", { name: "forklift" }).check();

  const modelFetched = page.waitForResponse((response) => response.url().includes("/api/local-detector/model"));
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();
  expect((await modelFetched).status()).toBe(200);
  await expect(page.getByTestId("local-backend")).toHaveText("Running on WASM", { timeout: 30_000 });
  await expect(page.getByTestId("detection-canvas")).toHaveAttribute("data-labels", /^forklift #\d+$/, { timeout: 30_000 });
  await context.close();
});
