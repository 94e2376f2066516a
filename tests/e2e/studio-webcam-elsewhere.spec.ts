// A webcam saved on another device or browser: its device id is unknown here. The studio opens the camera
// with the same label by itself, else offers this device's camera with one click, and says which is in use.
import type { Page } from "@playwright/test";
import { addWebcam, expect, signUpInBrowser, test } from "./fixtures";

/** Saves a webcam through the API as another browser would have, then reloads the studio. */
async function seedWebcam(page: Page, camera: { name: string; deviceLabel: string; deviceId: string }) {
  const response = await page.request.post("/api/cameras", { data: { ...camera, model: "", status: "online" }, headers: { origin: new URL(page.url()).origin } });
  expect(response.ok()).toBe(true);
  await page.reload();
}

/** The label of Chromium's fake camera, as this page sees it (camera permission is granted). */
const localCameraLabel = (page: Page) => page.evaluate(async () => (await navigator.mediaDevices.enumerateDevices()).find((d) => d.kind === "videoinput")!.label);

const videoWidth = (page: Page) => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth);

test.beforeEach(async ({ page }) => {
  await signUpInBrowser(page);
});

test("a saved webcam with the same label opens by itself, and the card names the camera in use", async ({ page }) => {
  const label = await localCameraLabel(page);
  expect(label).not.toBe("");
  await seedWebcam(page, { name: "Desk cam", deviceLabel: label, deviceId: "id-from-another-browser" });
  await expect.poll(() => videoWidth(page), { timeout: 15_000 }).toBe(640);
  const card = page.getByTestId("camera-card");
  await expect(card.getByTestId("status-dot")).toHaveAttribute("data-online", "true");
  await expect(card.getByTestId("camera-device")).toHaveText(`Using ${label}`);
  await expect(page.getByRole("button", { name: "Use this device's camera" })).toHaveCount(0);
});

test("a saved webcam that isn't here offers this device's camera; one click opens it, and it is remembered", async ({ page }) => {
  const label = await localCameraLabel(page);
  await seedWebcam(page, { name: "Studio cam", deviceLabel: "Logitech BRIO", deviceId: "id-from-another-browser" });
  const preview = page.getByTestId("preview");
  await expect(preview).toContainText("This webcam is not connected.");
  const card = page.getByTestId("camera-card");
  await expect(card).toContainText("Offline");
  // Nothing was opened unasked.
  expect(await videoWidth(page)).toBe(0);

  await preview.getByRole("button", { name: "Use this device's camera" }).click();
  await expect.poll(() => videoWidth(page), { timeout: 15_000 }).toBe(640);
  await expect(card.getByTestId("status-dot")).toHaveAttribute("data-online", "true");
  await expect(card.getByTestId("camera-device")).toHaveText(`Using ${label}`);
  await expect(preview.getByRole("button", { name: "Use this device's camera" })).toHaveCount(0);

  // This browser remembers the choice: the next visit opens it without asking.
  await page.reload();
  await expect.poll(() => videoWidth(page), { timeout: 15_000 }).toBe(640);
  await expect(page.getByTestId("camera-device")).toHaveText(`Using ${label}`);
});

test("adding a webcam records its device label, so another browser can find it", async ({ page }) => {
  const label = await localCameraLabel(page);
  await addWebcam(page);
  const cameras = (await (await page.request.get("/api/cameras")).json()) as Array<{ deviceLabel: string | null }>;
  expect(cameras.map((c) => c.deviceLabel)).toEqual([label]);
  // The exact device: nothing to say about which camera is in use.
  await expect(page.getByTestId("camera-device")).toHaveCount(0);
});
