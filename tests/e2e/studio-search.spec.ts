// Library search in the Photos tab, on desktop and on a phone: words with highlighted matches and a result count,
// a facet that narrows the results, a result opened in the gallery (arrow keys step through the results), the search
// in the page URL (reload keeps it, Back returns to the search before), and saving a search.
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { expect, signUpInBrowser, test } from "./fixtures";

async function seedPhotos(page: Page): Promise<{ gate: string; yard: string }> {
  const headers = { origin: new URL(page.url()).origin };
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#446688" } })
    .jpeg()
    .toBuffer();
  const imageData = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
  const gate = (await (await page.request.post("/api/cameras", { data: { name: "Gate" }, headers })).json()).id as string;
  const yard = (await (await page.request.post("/api/cameras", { data: { name: "Yard" }, headers })).json()).id as string;
  const photos = [
    {
      cameraId: gate,
      description: "A brown dog waits at the back door",
      detectionQuery: "dog",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.1, x_max: 0.5, y_max: 0.5, label: "dog" }],
    },
    { cameraId: yard, description: "A dog runs across the lawn" },
    { cameraId: yard, description: "A cat sleeps in the sun" },
  ];
  for (const data of photos) expect((await page.request.post("/api/photos", { data: { imageData, ...data }, headers })).status()).toBe(201);
  return { gate, yard };
}

async function searchAndNarrow(page: Page, scope: ReturnType<Page["locator"]>, cameras: { gate: string }) {
  await scope.getByLabel("Search photos").fill("dog");
  await expect(scope.getByTestId("search-count")).toHaveText("2 photos");
  await expect(page).toHaveURL(/[?&]q=dog(&|$)/);
  await expect(scope.getByTestId("search-result")).toHaveCount(2);
  await expect(scope.getByTestId("search-highlight").first().locator("mark")).toHaveText("dog");

  // The camera facet counts the matches per camera; choosing one narrows the results and goes into the URL.
  const camera = scope.getByLabel("Camera");
  await expect(camera.locator("option")).toHaveText(["Camera: any", "Gate (1)", "Yard (1)"]);
  await camera.selectOption(cameras.gate);
  await expect(scope.getByTestId("search-count")).toHaveText("1 photo");
  await expect(page).toHaveURL(new RegExp(`camera=${cameras.gate}`));

  // Back returns to the search before the facet.
  await page.goBack();
  await expect(scope.getByTestId("search-count")).toHaveText("2 photos");
  await expect(page).not.toHaveURL(/camera=/);
  await expect(scope.getByLabel("Search photos")).toHaveValue("dog");
}

test.describe("desktop", () => {
  test("search from the Photos tab, narrow by a facet, open a result in the gallery, keep the search in the URL", async ({ page }) => {
    await signUpInBrowser(page);
    const cameras = await seedPhotos(page);
    await page.reload();
    const bar = page.getByRole("region", { name: "Library and capture" });
    await expect(bar.getByTestId("photo-thumb")).toHaveCount(3);

    await searchAndNarrow(page, bar, cameras);

    // A result opens in the gallery, whose arrow keys step through the results only.
    await bar.getByTestId("search-result").first().getByRole("button").click();
    const gallery = page.getByRole("dialog", { name: "Photo" });
    await expect(gallery.getByTestId("gallery-position")).toHaveText("1 / 2");
    await page.keyboard.press("ArrowRight");
    await expect(gallery.getByTestId("gallery-position")).toHaveText("2 / 2");
    await expect(gallery.getByTestId("photo-description")).toContainText("dog");
    await page.keyboard.press("Escape");
    await expect(gallery).toBeHidden();

    // The URL is a bookmark: a reload shows the same search.
    await page.reload();
    await expect(bar.getByTestId("search-count")).toHaveText("2 photos");
    await expect(bar.getByRole("link", { name: "Search events in the timeline" })).toHaveAttribute("href", "/studio/timeline?q=dog");

    // Save it, with a notification; it is listed, and can be deleted.
    await bar.getByRole("button", { name: "Save this search" }).click();
    const dialog = page.getByRole("dialog", { name: "Save this search" });
    await dialog.getByLabel("Name").fill("Dog at the back door");
    await dialog.getByLabel("Send the webhook").check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await bar.getByRole("button", { name: "Saved searches" }).click();
    const list = page.getByRole("dialog", { name: "Saved searches" });
    await expect(list.getByTestId("saved-search")).toContainText("Dog at the back door");
    await expect(list.getByTestId("saved-search")).toContainText("notifies by webhook");
    await list.getByRole("button", { name: "Delete saved search Dog at the back door" }).click();
    await expect(list.getByText("No saved searches yet")).toBeVisible();
    await list.getByRole("button", { name: "Close" }).click();
    await expect(list).toBeHidden();

    // Clearing the search brings the library strip back.
    await bar.getByRole("button", { name: "Clear" }).click();
    await expect(bar.getByTestId("photo-thumb")).toHaveCount(3);
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("search from the Photos sheet, narrow by a facet, open a result", async ({ page }) => {
    await signUpInBrowser(page);
    const cameras = await seedPhotos(page);
    await page.reload();
    await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "Photos" }).click();
    const sheet = page.getByRole("dialog", { name: "Photos & Stories" });
    await expect(sheet.getByTestId("photo-thumb")).toHaveCount(3);

    await searchAndNarrow(page, sheet, cameras);

    await sheet.getByTestId("search-result").last().getByRole("button").tap();
    const gallery = page.getByRole("dialog", { name: "Photo" });
    await expect(gallery.getByTestId("gallery-position")).toHaveText("2 / 2");
    await gallery.getByRole("button", { name: "Previous photo" }).tap();
    await expect(gallery.getByTestId("gallery-position")).toHaveText("1 / 2");
  });
});
