// The studio on a phone-sized screen: bottom bar sheets (one at a time), capture from the sheet, settings menu.
import { expect, signUpInBrowser, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test("bottom bar sheets open one at a time; a photo is taken from the Capture Controls sheet", async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
  await signUpInBrowser(page);
  const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
  await expect(nav).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Camera list" })).toBeHidden();

  // Add the webcam from the full-screen settings menu.
  await page.getByRole("button", { name: "Menu" }).click();
  const menu = page.getByRole("dialog", { name: "Settings" });
  await expect(menu.getByRole("heading", { name: "Add Source" })).toBeVisible();
  await expect(menu.getByRole("heading", { name: "AI settings" })).toBeVisible();
  await expect(menu.getByRole("heading", { name: "Auto-capture settings" })).toBeVisible();
  await menu.getByRole("button", { name: "Add Camera" }).click();
  await page.getByRole("menuitem", { name: "Add Camera" }).click();
  await page.getByRole("button", { name: "Select Webcam" }).click();
  await page.getByRole("dialog", { name: "Select Webcam" }).getByRole("listitem").first().getByRole("button").click();
  await expect(menu.getByTestId("camera-card")).toHaveCount(1);
  await menu.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);

  await nav.getByRole("button", { name: "Capture" }).click();
  const captureSheet = page.getByRole("dialog", { name: "Capture Controls" });
  await expect(captureSheet).toBeVisible();
  await captureSheet.getByLabel("Mode").selectOption({ label: "Burst Mode" });
  await expect(captureSheet.getByRole("spinbutton", { name: "Photos" })).toBeVisible();
  await captureSheet.getByLabel("Mode").selectOption({ label: "Single Shot" });
  await captureSheet.getByRole("button", { name: "Take Photo" }).click();

  await nav.getByRole("button", { name: "Photos" }).click();
  await expect(captureSheet).toBeHidden();
  const photosSheet = page.getByRole("dialog", { name: "Photos & Stories" });
  await expect(photosSheet.getByTestId("photo-thumb")).toHaveCount(1);

  await nav.getByRole("button", { name: "AI" }).click();
  await expect(photosSheet).toBeHidden();
  await expect(page.getByRole("dialog", { name: "AI" })).toBeVisible();
  await expect(nav.getByRole("button", { name: "AI" })).toHaveAttribute("aria-pressed", "true");
  await expect(nav.getByRole("button", { name: "Photos" })).toHaveAttribute("aria-pressed", "false");
});
