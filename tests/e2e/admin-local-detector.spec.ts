// The admin dashboard's "Local detector" tab in a real browser, on a desktop and on a phone: an administrator uploads
// a tiny YOLO model (a real ONNX file, tests/support/onnx-model.ts), sees the check's message under the field it is
// about when the labels do not fit, makes the model the studios' detector and goes back to the built-in one.
// The detector is deployment-wide: this file runs its own app on its own database, so the studio specs running
// beside it on the shared app never get this model.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { yoloDetector } from "../support/onnx-model";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import { expect, test, toastWith } from "./fixtures";

test.describe.configure({ mode: "serial" });
// The refused uploads' 422s, which the browser logs as failed loads.
test.use({ allowConsoleErrors: [/status of 422/] });

const ADMIN = { username: "detector_admin", password: "detector-admin-password" };
let app: TestApp;
let modelFile: string;

test.beforeAll(async () => {
  // Starting an app of its own takes a few seconds more than a test's budget on a loaded machine.
  test.setTimeout(90_000);
  // A database of its own on the suite's PostgreSQL: its first account, made from this machine, is its administrator.
  app = await startApp({ DATABASE_URL: await createOwnDatabase(process.env.E2E_DATABASE_URL!), DATA_DIR: tempDir("e2e-detector") });
  const signup = await fetch(`${app.url}/api/auth/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  expect(signup.status).toBe(201);
  // Two classes (person, forklift), a 64×64 input.
  modelFile = path.join(mkdtempSync(path.join(os.tmpdir(), "fw-onnx-")), "forklifts.onnx");
  writeFileSync(modelFile, yoloDetector([{ cx: 20, cy: 20, w: 8, h: 8, scores: [0.9, 0.1] }], 2));
});

test.afterAll(async () => {
  await app?.stop();
});

const uploadedModels = (page: Page) => page.getByRole("region", { name: "Uploaded models" });

async function openDetectorTab(page: Page) {
  await page.goto(`${app.url}/login`);
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await page.goto(`${app.url}/admin`);
  await page.getByRole("link", { name: "Local detector" }).click();
  await expect(page.getByRole("heading", { name: "Upload a model" })).toBeVisible();
}

async function uploadAndUse(page: Page, name: string) {
  const current = page.getByTestId("current-detector");
  await expect(current).toHaveText("CenterNet (COCO, built in) · 80 labels");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Model file (.onnx)").setInputFiles(modelFile);
  const upload = page.getByRole("button", { name: "Upload and check" });

  // No labels: the message is under the labels.
  await upload.click();
  const labels = page.getByLabel("Labels");
  await expect(labels).toHaveAccessibleDescription(/^The label list is empty: give the model's class names, one per line, in the order of its class ids\./);
  await expect(page.locator("#detector-labels-error")).toBeVisible();

  // Three labels for a model of two: the output's shape says so, under the file.
  await page.getByRole("button", { name: "Fill in COCO's 80 classes" }).click();
  await expect(labels).toHaveValue(/^person\nbicycle\ncar\n[\s\S]*\ntoothbrush$/);
  await labels.fill("person\nforklift\ndog");
  await upload.click();
  const file = page.getByLabel("Model file (.onnx)");
  await expect(file).toHaveAccessibleDescription(/a YOLO detector with 3 labels answers \[1, 7, boxes\]/);
  await expect(page.locator("#detector-file-error")).toContainText('The model\'s output "output0" is [1, 6, 1]');
  await expect(labels).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("No models uploaded yet")).toBeVisible();

  await labels.fill("person\nforklift");
  await upload.click();
  await expect(toastWith(page, "Model uploaded")).toBeVisible();
  const item = uploadedModels(page).getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText("YOLO · 64×64 input · 2 labels");
  await expect(item).toContainText(`by ${ADMIN.username}`);
  await expect(page.locator("#detector-file-error")).toHaveCount(0);
  await expect(labels).toHaveValue("");

  await item.getByRole("button", { name: `Use ${name}` }).click();
  await expect(toastWith(page, "Detector changed")).toBeVisible();
  await expect(current).toHaveText(`${name} · YOLO · 64×64 input · 2 labels`);
  await expect(item).toContainText("In use");
  // What every studio reads.
  const detector = (await (await page.request.get(`${app.url}/api/local-detector`)).json()) as { kind: string; name: string; labels: string[] };
  expect(detector).toMatchObject({ kind: "onnx", name, labels: ["person", "forklift"] });

  await page.getByRole("button", { name: "Use the built-in detector" }).click();
  await expect(current).toHaveText("CenterNet (COCO, built in) · 80 labels");
  await expect(item).not.toContainText("In use");
  expect(((await (await page.request.get(`${app.url}/api/local-detector`)).json()) as { kind: string }).kind).toBe("built-in");
}

async function deleteModel(page: Page, name: string) {
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${name}?` });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Model deleted")).toBeVisible();
  await expect(uploadedModels(page).getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  await expect(page.getByText("No models uploaded yet")).toBeVisible();
}

test("on a desktop, an administrator uploads a model, sees why a wrong label list does not fit, uses it and goes back to the built-in detector", async ({ page }) => {
  await openDetectorTab(page);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id)).toEqual([]);
  await uploadAndUse(page, "Forklift finder");
  await deleteModel(page, "Forklift finder");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("an administrator uploads a model, sees why a wrong label list does not fit, uses it and goes back", async ({ page }) => {
    await openDetectorTab(page);
    // Nothing sideways: the tab fits the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await uploadAndUse(page, "Pocket forklifts");
    await deleteModel(page, "Pocket forklifts");
  });
});
