// A Moondream Station without segmentation, as the gallery meets it (desktop and phone): the first outline is
// answered with the studio's message, and from then on the gallery says so before anything is tried. This file runs
// its own app (keyless, on an older Station played by its own fake) on its own database.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { SEGMENTATION_UNSUPPORTED } from "#app/schemas/vision";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import { expect, signUpInBrowser, test } from "./fixtures";

// In order: the desktop test asks the Station first, the phone's then finds the answer remembered.
test.describe.configure({ mode: "serial" });

let fake: FakeMoondream;
let app: TestApp;

test.beforeAll(async () => {
  test.setTimeout(90_000); // an app of its own starts in seconds on a loaded machine
  fake = await startFakeMoondream();
  app = await startApp({
    DATABASE_URL: await createOwnDatabase(process.env.E2E_DATABASE_URL!),
    DATA_DIR: tempDir("e2e-segment-station"),
    MOONDREAM_ENDPOINT: fake.legacyStationUrl,
    MOONDREAM_KEYLESS: "true",
    LOCAL_VISION_PIPELINES: "false",
  });
});

test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

async function seedPhoto(page: Page) {
  const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#dd1122" } })
    .png()
    .toBuffer();
  const response = await page.request.post("/api/photos", { data: { imageData: `data:image/png;base64,${png.toString("base64")}` }, headers: { origin: app.url } });
  expect(response.status()).toBe(201);
}

for (const viewport of [
  { name: "desktop", size: { width: 1440, height: 900 }, touch: false },
  { name: "phone", size: { width: 390, height: 844 }, touch: true },
]) {
  test(`${viewport.name}: the gallery names a Moondream Station without segmentation`, async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ baseURL: app.url, viewport: viewport.size, hasTouch: viewport.touch });
    const page = await context.newPage();
    await page.goto("/");
    await signUpInBrowser(page);
    await seedPhoto(page);
    await page.reload();
    if (viewport.touch) await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "Photos" }).click();
    const openGallery = async () => {
      await page
        .getByTestId("photo-thumb")
        .filter({ visible: true })
        .first()
        .getByRole("button", { name: /^Open photo/ })
        .click();
      return page.getByRole("dialog", { name: "Photo" });
    };
    let gallery = await openGallery();
    const note = gallery.getByTestId("edit-unsupported");
    // The desktop test asks first; the phone's app already knows (it remembers the answer per endpoint).
    if (viewport.name === "desktop") {
      await gallery.getByRole("button", { name: "Cut out" }).click();
      await gallery.getByLabel("What to cut out").fill("red");
      await gallery.getByRole("button", { name: "Find outline" }).click();
      await expect(note).toHaveText(SEGMENTATION_UNSUPPORTED);
      await gallery.getByRole("button", { name: "Close" }).click();
      gallery = await openGallery();
    }
    // Said before anything is tried: no edit buttons to press.
    await expect(gallery.getByTestId("edit-unsupported")).toHaveText(SEGMENTATION_UNSUPPORTED);
    await expect(gallery.getByRole("button", { name: "Cut out" })).toHaveCount(0);
    await context.close();
  });
}
