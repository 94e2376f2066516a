// Gallery edits from a Moondream outline, on desktop and on a phone: cut out a subject (marked with a click), see
// the outline over the photo, Escape cancels, then save it and find the new transparent PNG in the strip.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { FAKE_OUTLINE } from "../fakes/moondream/server";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

/** A red block (the subject the fake outlines) on black-and-white stripes. */
async function seedPhoto(page: Page): Promise<string> {
  const [W, H] = [640, 480];
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const subject = x >= 0.3 * W && x < 0.6 * W && y >= 0.25 * H && y < 0.75 * H;
      raw.set(subject ? [220, 20, 30] : Math.floor(x / 6) % 2 ? [250, 250, 250] : [5, 5, 5], (y * W + x) * 3);
    }
  }
  const png = await sharp(raw, { raw: { width: W, height: H, channels: 3 } })
    .png()
    .toBuffer();
  const response = await page.request.post("/api/photos", {
    data: { imageData: `data:image/png;base64,${png.toString("base64")}` },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function cutOutAndSave(page: Page, strip: ReturnType<Page["getByTestId"]>, sourceId: string) {
  await strip
    .getByTestId("photo-thumb")
    .first()
    .getByRole("button", { name: /^Open photo/ })
    .click();
  const gallery = page.getByRole("dialog", { name: "Photo" });
  await gallery.getByRole("button", { name: "Cut out" }).click();
  await gallery.getByLabel("What to cut out").fill("red block");
  const frame = gallery.getByTestId("gallery-edit-frame");
  const box = (await frame.boundingBox())!;
  await frame.click({ position: { x: box.width * 0.45, y: box.height * 0.5 } });
  await expect(gallery.getByTestId("edit-point")).toHaveCount(1);
  await gallery.getByRole("button", { name: "Find outline" }).click();
  const outline = gallery.getByTestId("edit-outline");
  await expect(outline.locator("path")).toHaveAttribute("d", FAKE_OUTLINE);

  // Escape cancels the edit, not the gallery.
  await page.keyboard.press("Escape");
  await expect(outline).toHaveCount(0);
  await expect(gallery.getByLabel("What to cut out")).toHaveCount(0);
  await expect(gallery).toBeVisible();

  await gallery.getByRole("button", { name: "Cut out" }).click();
  await gallery.getByLabel("What to cut out").fill("red block");
  await gallery.getByRole("button", { name: "Find outline" }).click();
  await expect(outline.locator("path")).toHaveAttribute("d", FAKE_OUTLINE);
  await gallery.getByRole("button", { name: "Save cut-out" }).click();
  await expect(toastWith(page, "Saved as a new photo")).toBeVisible();
  // The gallery stays on the source photo while the strip grows.
  await expect(gallery.getByTestId("gallery-position")).toHaveText("2 / 2");
  await gallery.getByRole("button", { name: "Close" }).click();

  const thumbs = strip.getByTestId("photo-thumb");
  await expect(thumbs).toHaveCount(2);
  const newId = await thumbs.first().getAttribute("data-photo-id");
  expect(newId).not.toBe(sourceId);
  const photo = await (await page.request.get(`/api/photos/${newId}`)).json();
  expect(photo).toMatchObject({ editKind: "cutout", sourcePhotoId: sourceId, width: 640, height: 480 });
  const image = await page.request.get(`/api/photos/${newId}/image`);
  expect(image.headers()["content-type"]).toBe("image/png");
  const { data } = await sharp(await image.body())
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Transparent around the subject, opaque on it.
  expect(data.includes(0)).toBe(true);
  expect(data.includes(255)).toBe(true);
  expect(data[0]).toBe(0);
}

test("desktop: cut out a subject from the gallery and see the new transparent photo in the strip", async ({ page }) => {
  await signUpInBrowser(page);
  const sourceId = await seedPhoto(page);
  await page.reload();
  const strip = page.getByTestId("photo-strip");
  await expect(strip.getByTestId("photo-thumb")).toHaveCount(1);
  await cutOutAndSave(page, strip, sourceId);

  // A smart crop of the source (now second in the strip) to 1:1: a new square JPEG first in the strip.
  await strip
    .getByTestId("photo-thumb")
    .nth(1)
    .getByRole("button", { name: /^Open photo/ })
    .click();
  const gallery = page.getByRole("dialog", { name: "Photo" });
  await gallery.getByRole("button", { name: "Smart crop" }).click();
  await gallery.getByLabel("Subject to crop around").fill("red block");
  await gallery.getByLabel("Aspect").selectOption("1:1");
  await gallery.getByRole("button", { name: "Find outline" }).click();
  await expect(gallery.getByTestId("edit-outline").locator("path")).toHaveAttribute("d", FAKE_OUTLINE);
  await gallery.getByRole("button", { name: "Save crop" }).click();
  await expect(gallery.getByTestId("gallery-position")).toHaveText("3 / 3");
  await gallery.getByRole("button", { name: "Close" }).click();
  await expect(strip.getByTestId("photo-thumb")).toHaveCount(3);
  const cropId = await strip.getByTestId("photo-thumb").first().getAttribute("data-photo-id");
  const crop = await (await page.request.get(`/api/photos/${cropId}`)).json();
  expect(crop).toMatchObject({ editKind: "crop", sourcePhotoId: sourceId });
  expect(crop.width).toBe(crop.height);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("cut out a subject from the gallery and see the new transparent photo in the strip", async ({ page }) => {
    await signUpInBrowser(page);
    const sourceId = await seedPhoto(page);
    await page.reload();
    await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "Photos" }).click();
    const sheet = page.getByRole("dialog", { name: "Photos & Stories" });
    await expect(sheet.getByTestId("photo-thumb")).toHaveCount(1);
    await cutOutAndSave(page, sheet, sourceId);
  });
});
