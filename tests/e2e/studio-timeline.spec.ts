// The events timeline (issue 32) on a desktop and on a phone (390×844, touch): reached from the studio's top bar (the
// phone's menu); a camera's local-vision events, one with its photo and Moondream's description; the day strip's
// marks; filters and search kept in the URL (a ?q= link, the back button, a typo corrected); keyboard selection; and
// "Jump to the photo" opening the photo with its description and download, closed with Escape.
import type { Page } from "@playwright/test";
import { jpegDataUrl } from "../support/images";
import { expect, signUpInBrowser, test } from "./fixtures";

test.describe.configure({ timeout: 90_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };
const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };

/** Signs up, then through the API (as the studio does): a camera with a line and a zone, a photo, three events. */
async function seed(page: Page): Promise<{ cameraId: string; lineId: string }> {
  await signUpInBrowser(page);
  const headers = { origin: new URL(page.url()).origin };
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(path, { data, headers });
    expect(response.status(), path).toBeLessThan(300);
    return (await response.json()) as { id: string };
  };
  const camera = await post("/api/cameras", { name: "Back door", deviceId: "timeline-e2e" });
  const line = await post(`/api/cameras/${camera.id}/lines`, { name: "Front gate", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } });
  const zone = await post(`/api/cameras/${camera.id}/zones`, {
    name: "Loading bay",
    polygon: [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.1 },
      { x: 0.5, y: 0.9 },
    ],
  });
  const photo = await post("/api/photos", { imageData: await jpegDataUrl(320, 240), cameraId: camera.id, visionEvent: true });
  // Minutes ago, so the events fall on today's strip (unless the test runs in the first minutes after midnight).
  const at = Math.max(Date.now() - 5 * 60_000, new Date().setHours(0, 0, 30, 0));
  await post(`/api/cameras/${camera.id}/vision-events`, {
    events: [
      { type: "line.crossed", lineId: line.id, direction: "in", trackId: 1, label: "person", at, box, photoId: photo.id, description: "A man in a red jacket carrying a bicycle" },
      { type: "zone.entered", zoneId: zone.id, trackId: 2, label: "car", at: at + 1000, box },
      { type: "zone.loitering", zoneId: zone.id, trackId: 3, label: "person", at: at + 2000, box, dwellSeconds: 40, description: "A woman waiting with a dog" },
    ],
  });
  return { cameraId: camera.id, lineId: line.id };
}

async function openTimeline(page: Page) {
  await page.goto("/studio");
  if ((page.viewportSize()?.width ?? 1280) < 640) {
    await expect(page.getByRole("banner").getByRole("link", { name: "Timeline" })).toBeHidden();
    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    await page
      .getByRole("dialog", { name: "Settings" })
      .getByRole("link", { name: /^Timeline/ })
      .click();
  } else {
    await page.getByRole("banner").getByRole("link", { name: "Timeline" }).click();
  }
  await expect(page).toHaveURL(/\/studio\/timeline$/);
  await expect(page.getByRole("heading", { level: 1, name: "Timeline" })).toBeVisible();
}

const rows = (page: Page) => page.getByTestId("timeline-event");
const selected = (page: Page) => page.locator('[data-testid="timeline-event"][aria-current="true"]');

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    test("reviews the day's events: strip, filters, search, keyboard and the event's photo", async ({ page }) => {
      await seed(page);
      await openTimeline(page);

      // Newest first, each with its type, class, line or zone, camera and description; the newest is selected.
      await expect(rows(page)).toHaveCount(3);
      await expect(rows(page).nth(0)).toContainText("Loitering");
      await expect(rows(page).nth(0)).toContainText("A woman waiting with a dog");
      await expect(rows(page).nth(1)).toContainText("Zone entered");
      await expect(rows(page).nth(1)).toContainText("Loading bay");
      await expect(rows(page).nth(2)).toContainText("Line crossed");
      await expect(rows(page).nth(2)).toContainText("Front gate");
      await expect(rows(page).nth(2)).toContainText("Back door");
      await expect(selected(page)).toContainText("Loitering");

      // The day strip: the camera's marks; a mark selects its event.
      await expect(page.getByTestId("day-strip-camera")).toHaveCount(1);
      await page.getByRole("button", { name: /^Zone entered ×1 at .*, Back door$/ }).click();
      await expect(selected(page)).toContainText("Zone entered");

      // Keyboard: j/k and the arrows move the selection; Enter opens the event, Escape closes it.
      await page.keyboard.press("j");
      await expect(selected(page)).toContainText("Line crossed");
      await page.keyboard.press("k");
      await expect(selected(page)).toContainText("Zone entered");
      await page.keyboard.press("ArrowUp");
      await expect(selected(page)).toContainText("Loitering");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await expect(selected(page)).toContainText("Line crossed");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Line crossed" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText("A man in a red jacket carrying a bicycle")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // Filters live in the URL; the back button undoes one.
      await page.getByLabel("Type").selectOption("zone.entered");
      await expect(page).toHaveURL(/type=zone\.entered/);
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first()).toContainText("car");
      await page.goBack();
      await expect(rows(page)).toHaveCount(3);
      await page.getByLabel("Class").fill("car");
      await page.getByLabel("Class").press("Enter");
      await expect(page).toHaveURL(/label=car/);
      await expect(rows(page)).toHaveCount(1);
      await page.goBack();
      await expect(rows(page)).toHaveCount(3);

      // Search, with a typo: the nearest word is searched for and marked in the description.
      await page.getByLabel("Search events").fill("bicyle");
      await page.getByLabel("Search events").press("Enter");
      await expect(page).toHaveURL(/q=bicyle/);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.getByText("Showing results for")).toContainText("bicycle");
      await expect(rows(page).first().locator("mark")).toHaveText("bicycle");

      // "Jump to the photo": the full image, its description and a download.
      await rows(page).first().getByRole("button", { name: "Jump to the photo" }).click();
      const photo = page.getByRole("dialog", { name: "Line crossed" });
      await expect(photo.getByRole("img")).toBeVisible();
      await expect.poll(() => photo.getByRole("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(320);
      await expect(photo.getByRole("link", { name: "Download" })).toHaveAttribute("href", /\/api\/photos\/[0-9a-f-]{36}\/image$/);
      await page.keyboard.press("Escape");
      await expect(photo).toBeHidden();

      // A link with ?q= (from the Photos tab) searches at once; an exclusion leaves out what has the word.
      await page.goto(`/studio/timeline?q=${encodeURIComponent("person -bicycle")}`);
      await expect(page.getByLabel("Search events")).toHaveValue("person -bicycle");
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first()).toContainText("A woman waiting with a dog");
      await page.goto("/studio/timeline?q=elephant");
      await expect(page.getByText("No events match these filters.")).toBeVisible();
    });
  });
}

test("shows an event that lands while the page is open, on top of the list and on the strip, without a reload", async ({ page }) => {
  const { cameraId, lineId } = await seed(page);
  await openTimeline(page);
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByRole("button", { name: /^Line crossed ×1 at / })).toHaveCount(1);
  const response = await page.request.post(`/api/cameras/${cameraId}/vision-events`, {
    data: { events: [{ type: "line.crossed", lineId, direction: "out", trackId: 9, label: "dog", at: Date.now(), box }] },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBeLessThan(300);
  // The page asks for the newest events every 5 s while it shows them.
  await expect(rows(page)).toHaveCount(4, { timeout: 15_000 });
  await expect(rows(page).first()).toContainText("dog");
  await expect(selected(page)).toContainText("Loitering");
  await expect(page.getByRole("button", { name: /^Line crossed ×1 at / })).toHaveCount(2, { timeout: 15_000 });
});

test("keeps events for the retention the user sets, with the field's message for a bad value", async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto("/studio/timeline");
  await expect(page.getByText("No events yet.", { exact: false })).toBeVisible();
  await expect(page.getByText("Events are kept for 90 days.")).toBeVisible();
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Timeline settings" });
  await dialog.getByLabel("Keep events for (days)").fill("0");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Keep events for at least 1 day")).toBeVisible();
  await dialog.getByLabel("Keep events for (days)").fill("30");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Events are kept for 30 days.")).toBeVisible();
  await page.reload();
  await expect(page.getByText("Events are kept for 30 days.")).toBeVisible();
});
