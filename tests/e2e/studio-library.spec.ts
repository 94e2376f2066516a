// Stories and people-count viewers render data created through the API; a count correction updates stats.
import sharp from "sharp";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";
import { seedSnapshots } from "./seed";

test("story viewer: title edit (Enter saves, Escape cancels), metadata, photos and the timeline", async ({ page }) => {
  await signUpInBrowser(page);
  const origin = new URL(page.url()).origin;
  const headers = { origin };
  const story = await (await page.request.post("/api/stories", { data: { cameraName: "Lab bench", title: "Titration" }, headers })).json();
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  const photo = await (await page.request.post("/api/photos", { data: { imageData: `data:image/jpeg;base64,${jpeg.toString("base64")}`, storyId: story.id }, headers })).json();
  await page.request.post(`/api/stories/${story.id}/captions`, { data: { caption: "A flask of clear liquid.", photoId: photo.id }, headers });
  await page.request.post(`/api/stories/${story.id}/captions`, { data: { caption: "The liquid turns pink." }, headers });

  await page.reload();
  await page.getByRole("tab", { name: "Stories" }).click();
  const card = page.getByTestId("story-card");
  await expect(card).toContainText("Titration");
  await expect(card).toContainText("1 photo");
  await expect(card).toContainText("Active");
  await card.click();
  const timeline = page.getByTestId("story-timeline");
  await expect(timeline.getByRole("listitem")).toHaveCount(2);
  await expect(timeline.getByRole("listitem").first()).toContainText("A flask of clear liquid.");
  await expect(page.getByRole("dialog", { name: "Story" })).toContainText("Lab bench");

  await page.getByRole("button", { name: "Edit title" }).click();
  await page.getByLabel("Story title").fill("Ignored");
  await page.getByLabel("Story title").press("Escape");
  await expect(page.getByTestId("story-title")).toHaveText("Titration");
  await page.getByRole("button", { name: "Edit title" }).click();
  await page.getByLabel("Story title").fill("Titration, part 1");
  await page.getByLabel("Story title").press("Enter");
  await expect(toastWith(page, "Title updated")).toContainText("Story title has been saved");
  await expect(page.getByTestId("story-title")).toHaveText("Titration, part 1");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe("titration__part_1.txt");
});

test("people-count viewer: stats tiles, snapshots, and a corrected count", async ({ page }) => {
  await signUpInBrowser(page);
  const origin = new URL(page.url()).origin;
  const me = await (await page.request.get("/api/auth/me")).json();
  const session = await (await page.request.post("/api/people-count/sessions", { data: { cameraName: "Sanctuary", title: "Sunday service" }, headers: { origin } })).json();
  await seedSnapshots(me.id, session.id, [10, 20, [8, 12]]);

  await page.reload();
  await page.getByRole("tab", { name: "People Count" }).click();
  const card = page.getByTestId("session-card");
  await expect(card).toContainText("Sunday service");
  await expect(card).toContainText("3 snapshots");
  await card.click();
  const stats = page.getByTestId("session-stats");
  await expect(stats).toContainText("Average13.3");
  await expect(stats).toContainText("Minimum8");
  await expect(stats).toContainText("Maximum20");
  await expect(page.getByRole("dialog", { name: "Sunday service" })).toContainText("Sanctuary");
  const snapshots = page.getByTestId("snapshot");
  await expect(snapshots).toHaveCount(3);
  await expect(snapshots.nth(2).getByLabel("Count")).toHaveValue("8-12");

  await snapshots.first().getByLabel("Count").fill("lots");
  await snapshots.first().getByLabel("Count").press("Enter");
  await expect(toastWith(page, "Invalid input")).toContainText("Please enter a number (e.g., '5') or a range (e.g., '8-12').");

  await snapshots.first().getByLabel("Count").fill("40");
  await snapshots.first().getByLabel("Count").press("Enter");
  await expect(toastWith(page, "Count updated")).toContainText("The count has been corrected");
  await expect(snapshots.first()).toContainText("Corrected");
  await expect(stats).toContainText("Average23.3");
  await expect(stats).toContainText("Maximum40");
});

test("a session with one snapshot says 'Snapshot'", async ({ page }) => {
  await signUpInBrowser(page);
  const origin = new URL(page.url()).origin;
  const me = await (await page.request.get("/api/auth/me")).json();
  const session = await (await page.request.post("/api/people-count/sessions", { data: { title: "Quick count" }, headers: { origin } })).json();
  await seedSnapshots(me.id, session.id, [3]);
  await page.reload();
  await page.getByRole("tab", { name: "People Count" }).click();
  await expect(page.getByTestId("session-card")).toContainText("1 snapshot");
  await page.getByTestId("session-card").click();
  await expect(page.getByTestId("session-stats")).toContainText("Snapshot1");
});
