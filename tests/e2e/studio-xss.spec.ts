// Stored XSS: script payloads saved in every field a user types (camera names, story titles and captions,
// session titles, LUT names, feature requests) or a provider returns (scoreboard team names) render as
// inert text in the studio, the admin dashboard and the live.html overlay. (Usernames cannot hold markup:
// sign-up allows only letters, digits, '.', '_' and '-', which the last test pins.)
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { markerImage, toDataUrl } from "../fakes/moondream/images";
import { E2E_ADMIN, expect, signUpInBrowser, test, uniqueUsername } from "./fixtures";

/** Each payload runs `alert` if it ever becomes markup or a link; under 100 characters (the camera name limit). */
const PAYLOADS = {
  img: `<img src=x onerror=alert(1)>`,
  script: `"><script>alert(2)</script>`,
  svg: `<svg onload=alert(3)>`,
  link: `javascript:alert(4)`,
};
const ALL = Object.values(PAYLOADS).join(" ");

/** Fails the test on any dialog (alert/confirm/prompt) the page opens. */
function watchDialogs(page: Page): string[] {
  const fired: string[] = [];
  page.on("dialog", (dialog) => {
    fired.push(dialog.message());
    void dialog.dismiss();
  });
  return fired;
}

/** No element the payloads would have made exists, and no link points at javascript:. */
async function expectNothingInjected(page: Page, where: string) {
  expect(await page.locator('img[src="x"]').count(), `${where}: injected <img>`).toBe(0);
  expect(await page.locator("svg[onload]").count(), `${where}: injected <svg>`).toBe(0);
  const injectedScripts = await page.locator("script").evaluateAll((scripts) => scripts.filter((s) => s.textContent?.includes("alert(")).length);
  expect(injectedScripts, `${where}: injected <script>`).toBe(0);
  const jsLinks = await page
    .locator("a[href], iframe[src], form[action]")
    .evaluateAll((elements) => elements.filter((e) => /^\s*javascript:/i.test(e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action") ?? "")).length);
  expect(jsLinks, `${where}: javascript: link`).toBe(0);
}

test("payloads in camera names, story titles, captions, sessions and LUT names are shown as text in the studio", async ({ page }) => {
  const dialogs = watchDialogs(page);
  await signUpInBrowser(page);
  const headers = { origin: new URL(page.url()).origin };
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(path, { data, headers });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(201);
    return (await response.json()) as { id: string };
  };
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#557799" } })
    .jpeg()
    .toBuffer();
  const thumbnail = `data:image/jpeg;base64,${picture.toString("base64")}`;
  await post("/api/cameras", { name: PAYLOADS.img + PAYLOADS.script, thumbnail });
  await post("/api/cameras", { name: PAYLOADS.svg + PAYLOADS.link, thumbnail });
  const story = await post("/api/stories", { title: `Story ${ALL}`, cameraName: PAYLOADS.img });
  const photo = await post("/api/photos", { imageData: thumbnail, storyId: story.id });
  await post(`/api/stories/${story.id}/captions`, { caption: `Caption ${ALL}`, photoId: photo.id });
  await post("/api/people-count/sessions", { title: `Session ${ALL}`, cameraName: PAYLOADS.script });
  await post("/api/luts", { name: `LUT ${PAYLOADS.img}`, lutData: "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n" });

  await page.reload();
  const names = page.getByTestId("camera-name");
  await expect(names).toHaveCount(2);
  await expect(names.nth(0)).toHaveText(PAYLOADS.img + PAYLOADS.script);
  await expect(names.nth(1)).toHaveText(PAYLOADS.svg + PAYLOADS.link);
  await expectNothingInjected(page, "camera list");

  await page.getByRole("tab", { name: "Stories" }).click();
  await expect(page.getByTestId("story-card")).toContainText(`Story ${ALL}`);
  await page.getByTestId("story-card").click();
  await expect(page.getByTestId("story-title")).toHaveText(`Story ${ALL}`);
  await expect(page.getByTestId("story-timeline").getByRole("listitem").first()).toContainText(`Caption ${ALL}`);
  await expectNothingInjected(page, "story viewer");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("story-title")).toBeHidden();

  await page.getByRole("tab", { name: "People Count" }).click();
  await expect(page.getByTestId("session-card")).toContainText(`Session ${ALL}`);
  await page.getByTestId("session-card").click();
  await expect(page.getByRole("dialog")).toContainText(`Session ${ALL}`);
  await expectNothingInjected(page, "session viewer");
  await page.keyboard.press("Escape");

  const panel = page.getByRole("complementary", { name: "Studio panel" });
  await panel.getByRole("tab", { name: "Settings" }).click();
  await expect(panel.getByText(`LUT ${PAYLOADS.img}`).first()).toBeAttached();
  await expectNothingInjected(page, "settings");
  expect(dialogs).toEqual([]);
});

test("a feature request full of payloads is shown as text on the admin dashboard", async ({ page, browser }) => {
  const context = await browser.newContext();
  const userPage = await context.newPage();
  const username = uniqueUsername("xss");
  await signUpInBrowser(userPage, username);
  const title = `Req ${username} ${PAYLOADS.img}${PAYLOADS.script}`;
  const description = `${ALL}\n<a href="javascript:alert(5)">click</a>`;
  const response = await userPage.request.post("/api/feature-requests", { data: { title, description }, headers: { origin: new URL(userPage.url()).origin } });
  expect(response.status()).toBe(201);
  await context.close();

  const dialogs = watchDialogs(page);
  await page.goto("/login");
  await page.getByLabel("Username").fill(E2E_ADMIN.username);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await page.goto("/admin");
  await expect(page.getByRole("row").filter({ hasText: username })).toBeVisible();
  await expectNothingInjected(page, "admin users");
  await page.getByRole("link", { name: "Feature Requests" }).click();
  const card = page.getByRole("listitem").filter({ hasText: title });
  await expect(card).toContainText(title);
  await expect(card).toContainText(`<a href="javascript:alert(5)">click</a>`);
  await expect(card.getByRole("link")).toHaveCount(0);
  await expectNothingInjected(page, "admin feature requests");
  expect(dialogs).toEqual([]);
});

test("scoreboard team names full of payloads are shown as text in live.html", async ({ page, request }) => {
  const signup = await request.post("/api/auth/signup", { data: { username: uniqueUsername("xsslive"), password: "secret-pass" } });
  expect(signup.status()).toBe(201);
  const { id } = (await signup.json()) as { id: string };
  const key = `e2e-xss-${id}`;
  expect((await request.post("/api/moondream/api-key", { data: { apiKey: key } })).status()).toBe(200);
  const board = { homeTeam: PAYLOADS.img, homeScore: 1, awayTeam: PAYLOADS.script, awayScore: 2, period: PAYLOADS.svg, timeRemaining: PAYLOADS.link };
  const control = new URL("/__fake/script", process.env.E2E_MOONDREAM_ENDPOINT).toString();
  expect((await request.post(control, { data: { key, answers: [`\`\`\`json\n${JSON.stringify(board)}\n\`\`\``] } })).ok()).toBe(true);
  const reading = await request.post("/api/moondream/scoreboard", { data: { imageData: toDataUrl(await markerImage()), sport: "basketball" } });
  expect(reading.status()).toBe(200);
  expect(((await (await request.get(`/api/scoreboard/live.json?userId=${id}`)).json()) as { homeTeam: string }).homeTeam).toBe(PAYLOADS.img);

  const dialogs = watchDialogs(page);
  await page.goto(`/api/scoreboard/live.html?userId=${id}`);
  await expect(page.locator("#home-team")).toHaveText(PAYLOADS.img);
  await expect(page.locator("#away-team")).toHaveText(PAYLOADS.script);
  await expectNothingInjected(page, "live.html");
  expect(dialogs).toEqual([]);
});

test("sign-up refuses markup in a username, so none is ever stored", async ({ request }) => {
  for (const username of [PAYLOADS.img, PAYLOADS.script.slice(0, 32), "a<b>c", 'x"onmouseover=alert(1)']) {
    const response = await request.post("/api/auth/signup", { data: { username, password: "secret-pass" } });
    expect(response.status(), username).toBe(400);
  }
});
