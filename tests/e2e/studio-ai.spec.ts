// The AI tab and the caption family in Chromium against the fake Moondream, with the fake webcam showing
// a picture of known markers (tests/support/y4m.ts): captions on their interval, story mode, people
// counting, the scoreboard, the free-call quota, the API key flow and settings that survive a reload.
// Tests that need known caption texts save their own key and script the fake's answers for it, so
// parallel tests never share a script.
import { SHARED_QUOTA_USED_UP } from "#app/schemas/vision";
import { findMarkers } from "../fakes/moondream/markers";
import { testCameraPicture } from "../support/y4m";
import { addWebcam, aiTab, expect, saveOwnKey, scriptAnswers, signUpInBrowser, test, toastWith } from "./fixtures";
import { seedSharedCallsUsed } from "./seed";

test.beforeEach(async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
});

test("API key: blank is refused with 'Invalid Key', a key is saved and shown as saved, Update reopens the input", async ({ page }) => {
  await signUpInBrowser(page);
  const tab = aiTab(page);
  await expect(tab.getByTestId("free-calls")).toHaveText("0 of 100 free calls used");
  const input = tab.getByLabel("Your Moondream API key");
  const save = tab.getByRole("button", { name: "Save" });
  await expect(save).toBeDisabled();
  await input.fill("   ");
  await save.click();
  await expect(toastWith(page, "Invalid Key")).toContainText("Please enter a valid API key");
  await expect(tab.getByText("API key saved")).toBeHidden();

  await saveOwnKey(page);
  // The current user was refreshed: an own key, so no free-call count any more.
  await expect(tab.getByTestId("free-calls")).toBeHidden();
  expect(
    (
      (await (await page.request.get("/api/auth/me")).json()) as {
        hasMoondreamApiKey: boolean;
      }
    ).hasMoondreamApiKey,
  ).toBe(true);
  await tab.getByRole("button", { name: "Update" }).click();
  await expect(tab.getByLabel("Your Moondream API key")).toBeVisible();
  await tab.getByRole("button", { name: "Cancel" }).click();
  await expect(tab.getByText("API key saved")).toBeVisible();
});

test("captions appear and refresh at the chosen 2 s interval; Stop ends the loop", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcam(page);
  const key = await saveOwnKey(page);
  await scriptAnswers(page, key, ["A first caption.", "A second caption.", "A third caption."]);
  const tab = aiTab(page);
  await tab.getByLabel("Analysis interval").selectOption("2");

  await tab.getByRole("switch", { name: "Enable AI analysis" }).click();
  const overlay = page.getByTestId("ai-caption-overlay");
  await expect(overlay).toContainText("AI Vision");
  const caption = overlay.getByTestId("ai-caption");
  await expect(caption).toHaveText("A first caption.", { timeout: 15_000 });
  await expect(caption).toHaveText("A second caption.", { timeout: 15_000 });
  await expect(caption).toHaveText("A third caption.", { timeout: 15_000 });

  // The next call starts one interval after the previous answer: never sooner, and not the 5 s default.
  // (The page's own resource timings: the test process hears of network events late on a busy machine.)
  const calls = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => e.name.endsWith("/api/moondream/caption"))
      .map((e) => ({ start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
  );
  expect(calls.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < 3; i++) {
    const gap = calls[i]!.start - calls[i - 1]!.end;
    expect(gap).toBeGreaterThanOrEqual(1990);
    expect(gap).toBeLessThan(4500);
  }

  await overlay.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(overlay).toBeHidden();
  await expect(tab.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "false");
});

test("story mode: a story with the initial photo, captions in order each with the photo they describe, Stop Story finishes it", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcam(page);
  const key = await saveOwnKey(page);
  const lines = ["The stage lights come up slowly.", "A red square waits in the middle."];
  await scriptAnswers(page, key, lines);
  const tab = aiTab(page);
  await tab.getByLabel("Story speed").selectOption("fast");
  await tab.getByRole("switch", { name: "Story Mode" }).click();
  await expect(toastWith(page, "Story Started")).toBeVisible({
    timeout: 15_000,
  });
  // Story mode turned AI on.
  await expect(tab.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "true");
  const overlay = page.getByTestId("story-overlay");
  await expect(overlay).toContainText("Story Mode");
  await expect(overlay.getByTestId("story-caption")).toHaveText(lines[0]!, {
    timeout: 15_000,
  });
  await expect(overlay.getByTestId("story-caption")).toHaveText(lines[1]!, {
    timeout: 15_000,
  });

  const stories = (await (await page.request.get("/api/stories")).json()) as Array<{ id: string; isActive: boolean }>;
  expect(stories).toHaveLength(1);
  const storyId = stories[0]!.id;
  // Both captions are saved (the second one's save may still be on its way).
  await expect.poll(async () => ((await (await page.request.get(`/api/stories/${storyId}/captions`)).json()) as unknown[]).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

  // Stop from the bottom bar's Stories tab.
  await page.getByRole("region", { name: "Library and capture" }).getByRole("tab", { name: "Stories" }).click();
  await page.getByRole("button", { name: "Stop Story" }).first().click();
  await expect(toastWith(page, "Story Finished")).toBeVisible();
  await expect(overlay).toBeHidden();

  const story = (await (await page.request.get(`/api/stories/${storyId}`)).json()) as { isActive: boolean; photoCount: number };
  expect(story.isActive).toBe(false);
  const captions = (await (await page.request.get(`/api/stories/${storyId}/captions`)).json()) as Array<{ caption: string; photoId: string | null }>;
  expect(captions.slice(0, 2).map((c) => c.caption)).toEqual(lines);
  const photos = (await (await page.request.get(`/api/stories/${storyId}/photos`)).json()) as Array<{ id: string; videoWidth: number; createdAt: string }>;
  // The initial full-size photo, then one photo per caption — the caption's own frame.
  expect(photos.length).toBe(captions.length + 1);
  expect(photos.every((p) => p.videoWidth === 640)).toBe(true);
  const captionPhotoIds = captions.map((c) => c.photoId);
  expect(captionPhotoIds.every((id) => id && photos.some((p) => p.id === id))).toBe(true);
  const initial = photos.filter((p) => !captionPhotoIds.includes(p.id));
  expect(initial).toHaveLength(1);

  // The story viewer's timeline shows the captions.
  await page.getByTestId("story-card").first().click();
  await expect(page.getByRole("dialog")).toContainText(lines[0]!);
  await expect(page.getByRole("dialog")).toContainText(lines[1]!);
});

test("people counting: a session whose snapshots and stats match the fake's count; Stop in the People Count tab", async ({ page }) => {
  const expected = (await findMarkers(await testCameraPicture())).length;
  await signUpInBrowser(page);
  await addWebcam(page);
  const tab = aiTab(page);
  await tab.getByLabel("People count interval (seconds)").fill("2");
  await tab.getByRole("switch", { name: "People Counting" }).click();
  await expect(tab.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "true");
  const overlay = page.getByTestId("counting-overlay");
  await expect(overlay.getByTestId("people-count")).toHaveText(String(expected), { timeout: 15_000 });
  await expect(overlay).toContainText("People Detected");
  await expect(overlay.getByTestId("count-stats")).toContainText("Snapshots");
  await expect.poll(async () => Number(await overlay.getByTestId("count-stats").locator("dd").nth(2).textContent()), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

  await page.getByRole("region", { name: "Library and capture" }).getByRole("tab", { name: "People Count" }).click();
  await expect(page.getByText("Currently Counting")).toBeVisible();
  await page.getByText("Currently Counting").locator("..").getByRole("button", { name: "Stop" }).click();
  await expect(toastWith(page, "People Counting Stopped")).toBeVisible();
  await expect(overlay).toBeHidden();
  await expect(page.getByText("Currently Counting")).toBeHidden();

  const sessions = (await (await page.request.get("/api/people-count/sessions")).json()) as Array<{ id: string }>;
  expect(sessions).toHaveLength(1);
  const session = (await (await page.request.get(`/api/people-count/sessions/${sessions[0]!.id}`)).json()) as {
    isActive: boolean;
    averageCount: number;
    minCount: number;
    maxCount: number;
    snapshotCount: number;
  };
  const snapshots = (await (await page.request.get(`/api/people-count/sessions/${sessions[0]!.id}/snapshots`)).json()) as Array<{ aiCount: number }>;
  expect(session.isActive).toBe(false);
  expect(snapshots.length).toBeGreaterThanOrEqual(2);
  expect(session.snapshotCount).toBe(snapshots.length);
  expect(snapshots.every((s) => s.aiCount === expected)).toBe(true);
  expect(session).toMatchObject({
    averageCount: expected,
    minCount: expected,
    maxCount: expected,
  });
});

test("scoreboard mode: the reading over the preview with the period label, and the public endpoints with copy and open", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUpInBrowser(page);
  await addWebcam(page);
  const tab = aiTab(page);
  const me = (await (await page.request.get("/api/auth/me")).json()) as {
    id: string;
  };
  const jsonUrl = `${baseURL}/api/scoreboard/live.json?userId=${me.id}`;
  await expect(tab.getByTestId("endpoint-json")).toHaveText(jsonUrl);
  await expect(tab.getByTestId("endpoint-html")).toHaveText(`${baseURL}/api/scoreboard/live.html?userId=${me.id}`);
  await tab.getByRole("button", { name: "Copy JSON endpoint" }).click();
  await expect(toastWith(page, "Copied!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(jsonUrl);
  await expect(tab.getByRole("link", { name: "Open HTML endpoint" })).toHaveAttribute("href", `${baseURL}/api/scoreboard/live.html?userId=${me.id}`);

  await tab.getByLabel("Scoreboard update interval (seconds)").fill("2");
  await tab.getByRole("switch", { name: "Scoreboard Mode" }).click();
  // The fake reads home "Red" = red markers, away "Blue" = blue markers, and no period (no green): LIVE.
  const overlay = page.getByTestId("scoreboard-overlay");
  await expect(overlay.getByTestId("scoreboard-home")).toHaveText("Red", {
    timeout: 15_000,
  });
  await expect(overlay.getByTestId("scoreboard-away")).toHaveText("Blue");
  await expect(overlay.getByTestId("scoreboard-score")).toHaveText("1 – 1");
  await expect(overlay.getByTestId("scoreboard-period")).toHaveText("LIVE");
  const live = (await (await page.request.get(jsonUrl)).json()) as {
    homeTeam: string;
    sport: string;
  };
  expect(live).toMatchObject({ homeTeam: "Red", sport: "football" });
  await tab.getByRole("switch", { name: "Scoreboard Mode" }).click();
  await expect(overlay).toBeHidden();
});

test.describe("free-call feedback", () => {
  // Chromium logs a refused call (402) as a failed resource load: one may race the loops' stop.
  test.use({ allowConsoleErrors: [/status of 402/] });

  test("calls/min beside the switches, a warning at 80, and at 100 the loops stop with one message and the key link", async ({ page }) => {
    const { username } = await signUpInBrowser(page);
    await seedSharedCallsUsed(username, 79);
    await page.reload();
    await addWebcam(page);
    const tab = aiTab(page);
    await expect(tab.getByTestId("free-calls")).toHaveText("79 of 100 free calls used");
    const rate = tab.getByTestId("loop-call-rate");
    await expect(rate).toHaveText("AI loops: no calls running");
    await tab.getByLabel("Analysis interval").selectOption("2");
    // Count every toast that appears, by title.
    await page.evaluate(() => {
      const w = window as unknown as { toastTitles: string[] };
      w.toastTitles = [];
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) if (node instanceof HTMLElement && node.matches("li")) w.toastTitles.push(node.querySelector("div > div")?.textContent ?? "");
      }).observe(document.body, { childList: true, subtree: true });
    });
    const titles = () => page.evaluate(() => (window as unknown as { toastTitles: string[] }).toastTitles);

    const enable = tab.getByRole("switch", { name: "Enable AI analysis" });
    await enable.click();
    // 2 s interval: 30 calls a minute, and the 21 calls left last about a minute at that pace.
    await expect(rate).toHaveText("AI loops: ≈ 30 calls/min · 21 free calls left ≈ 1 min");
    // The warning comes once, on crossing 80, and names the count it saw: calls finishing together may make it 81 or more.
    const warning = /\b8\d of 100 free AI calls used/;
    await expect(toastWith(page, warning)).toBeVisible({ timeout: 15_000 });

    await seedSharedCallsUsed(username, 99);
    const spent = toastWith(page, "Free AI calls used up");
    await expect(spent).toContainText(SHARED_QUOTA_USED_UP, { timeout: 15_000 });
    await expect(spent.getByRole("link", { name: "Get a free key at moondream.ai" })).toHaveAttribute("href", "https://moondream.ai");
    await expect(enable).toHaveAttribute("aria-checked", "false");
    await expect(rate).toHaveText("AI loops: no calls running");
    await expect(tab.getByTestId("free-calls")).toHaveText("100 of 100 free calls used", { timeout: 15_000 });
    const shown = await titles();
    expect(shown.filter((t) => warning.test(t))).toHaveLength(1);
    expect(shown.filter((t) => t.includes("Free AI calls used up"))).toHaveLength(1);
  });
});

test("AI settings survive a reload", async ({ page }) => {
  await signUpInBrowser(page);
  const tab = aiTab(page);
  await tab.getByLabel("Analysis interval").selectOption("10");
  await tab.getByLabel("Story speed").selectOption("slow");
  await tab.getByLabel("Sport").selectOption("soccer");
  await tab.getByLabel("Scoreboard update interval (seconds)").fill("7");
  await tab.getByLabel("People count interval (seconds)").fill("12");
  await tab.getByRole("switch", { name: "Range estimates" }).click();
  await page.reload();
  const after = aiTab(page);
  await expect(after.getByLabel("Analysis interval")).toHaveValue("10");
  await expect(after.getByLabel("Story speed")).toHaveValue("slow");
  await expect(after.getByLabel("Sport")).toHaveValue("soccer");
  await expect(after.getByLabel("Scoreboard update interval (seconds)")).toHaveValue("7");
  await expect(after.getByLabel("People count interval (seconds)")).toHaveValue("12");
  await expect(after.getByRole("switch", { name: "Range estimates" })).toHaveAttribute("aria-checked", "true");
  // Switches that spend calls start off after a reload.
  await expect(after.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "false");
});

test("people counting in range mode shows the estimate as a range with '(Estimate)'", async ({ page }) => {
  const markers = (await findMarkers(await testCameraPicture())).length;
  await signUpInBrowser(page);
  await addWebcam(page);
  const tab = aiTab(page);
  await tab.getByRole("switch", { name: "Range estimates" }).click();
  await tab.getByRole("switch", { name: "People Counting" }).click();
  // The fake answers "Roughly N to N+2 people." (N = markers).
  const overlay = page.getByTestId("counting-overlay");
  await expect(overlay.getByTestId("people-count")).toHaveText(`${markers}–${markers + 2}`, { timeout: 15_000 });
  await expect(overlay).toContainText("People Detected");
  await expect(overlay).toContainText("(Estimate)");
  await overlay.getByRole("button", { name: "Stop Counting" }).click();
  await expect(toastWith(page, "People Counting Stopped")).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the AI sheet and the settings menu hold the AI tab, sharing one AI", async ({ page }) => {
    await signUpInBrowser(page);
    await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).click();
    const sheet = page.getByRole("dialog", { name: "AI" });
    await expect(sheet.getByTestId("free-calls")).toHaveText("0 of 100 free calls used");
    await sheet.getByRole("switch", { name: "Enable AI analysis" }).click();
    await expect(sheet.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "true");
    // The settings menu's "AI settings" shows the same AI, already on.
    await sheet.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Menu" }).click();
    const menu = page.getByRole("dialog", { name: "Settings" });
    await expect(menu.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "true");
  });
});
