// People counting's local mode in the real studio: a fake webcam panning real photos of people, "Count People
// Locally" on, then People Counting: a session marked Local whose snapshots are the on-device count sampled at the
// count interval (people counted > 0), corrected like any other, and not one call reaching the fake Moondream.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { addWebcam, aiTab, expect, saveOwnKey, signUpInBrowser, test, toastWith, moondreamCalls } from "./fixtures";

test.describe.configure({ timeout: 150_000 }); // the model loads and compiles in seconds on 2 busy cores
test.beforeAll(async () => {
  await peopleVideoY4m();
});
// The browser starts after beforeAll has written the video (it is launched for the first test's page).
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

interface Snapshot {
  aiCount: number;
  correctedCount: number | null;
}

test("a local people-count session saves the on-device count at the interval, with no call", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const countCalls: string[] = [];
  page.context().on("request", (request) => {
    if (request.url().startsWith(`${origin}/api/people-count/count`)) countCalls.push(request.url());
  });
  await signUpInBrowser(page);
  // An own key, so any Moondream call this studio made would be counted against it by the fake.
  const key = await saveOwnKey(page, "e2e-local-session");
  await addWebcam(page);
  const tab = aiTab(page);
  await tab.getByLabel("People count interval (seconds)").fill("2");
  await tab.getByRole("switch", { name: "Count People Locally" }).click();
  // Started before the detector has loaded: the session waits for its first count.
  await tab.getByRole("switch", { name: "People Counting" }).click();
  const overlay = page.getByTestId("counting-overlay");
  await expect(overlay.getByTestId("count-source")).toHaveText("Local");
  await expect(tab.getByTestId("loop-call-rate")).toHaveText(/no calls running/);
  // AI analysis (Moondream's captions) is not switched on by a local session: nothing calls, during or after.
  await expect(tab.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "false");

  const sessions = async () => (await (await page.request.get("/api/people-count/sessions")).json()) as Array<{ id: string; source: string; isActive: boolean }>;
  await expect.poll(async () => (await sessions()).length).toBe(1);
  const [session] = await sessions();
  expect(session).toMatchObject({ source: "local", isActive: true });
  const snapshots = async () => (await (await page.request.get(`/api/people-count/sessions/${session!.id}/snapshots`)).json()) as Snapshot[];
  // The pan shows one to three people at a time: samples with people in them arrive, one per interval.
  await expect.poll(async () => (await snapshots()).filter((s) => s.aiCount > 0).length, { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
  await expect(overlay.getByTestId("count-stats")).toContainText("Snapshots");

  const library = page.getByRole("region", { name: "Library and capture" });
  await library.getByRole("tab", { name: "People Count" }).click();
  const card = page.getByTestId("session-card");
  await expect(card.getByTestId("count-source")).toHaveText("Local");
  await page.getByText("Currently Counting").locator("..").getByRole("button", { name: "Stop" }).click();
  await expect(toastWith(page, "People Counting Stopped")).toBeVisible();
  await expect(overlay).toBeHidden();

  // Corrections work as on Moondream's snapshots: the stats follow.
  const stored = await snapshots();
  await card.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("count-source")).toHaveText("Local");
  await expect(page.getByTestId("snapshot")).toHaveCount(stored.length);
  await page.getByTestId("snapshot").first().getByLabel("Count").fill("40");
  await page.getByTestId("snapshot").first().getByLabel("Count").press("Enter");
  await expect(toastWith(page, "Count updated")).toBeVisible();
  await expect(page.getByTestId("session-stats")).toContainText("Maximum40");
  expect((await snapshots())[0]).toMatchObject({ aiCount: stored[0]!.aiCount, correctedCount: 40 });

  expect(countCalls).toEqual([]);
  expect(await moondreamCalls(page.request, key)).toBe(0);
});
