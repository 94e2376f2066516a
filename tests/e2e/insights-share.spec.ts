// A share link in a fresh browser context (no session): the read-only report page with its charts and tables, on a
// desktop and a phone, with no serious accessibility violation; the lobby widget framed by another page, following
// new counts on its 30-second refresh; and both gone once the link is revoked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { jpegDataUrl } from "../support/images";
import { expect, test, uniqueUsername } from "./fixtures";

const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };

interface Owner {
  cameraId: string;
  lineId: string;
  post: (people: number, from: number) => Promise<void>;
}

/** A user with a camera and a door whose counts come as the studio sends them: vision-event batches. */
async function ownerWithCounts(request: APIRequestContext, cameraName: string, people: number): Promise<Owner> {
  expect((await request.post("/api/auth/signup", { data: { username: uniqueUsername("share"), password: "secret-pass" } })).status()).toBe(201);
  const thumbnail = await jpegDataUrl(64, 48);
  const camera = await request.post("/api/cameras", { data: { name: cameraName, thumbnail } });
  expect(camera.status()).toBe(201);
  const cameraId = ((await camera.json()) as { id: string }).id;
  const line = await request.post(`/api/cameras/${cameraId}/lines`, { data: { name: "Main door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } } });
  const lineId = ((await line.json()) as { id: string }).id;
  const post = async (count: number, from: number) => {
    const at = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
    const events = Array.from({ length: count }, (_, i) => ({ type: "line.crossed", lineId, direction: "in", trackId: from + i, label: "person", at: at + i * 100, box }));
    expect((await request.post(`/api/cameras/${cameraId}/vision-events`, { data: { events } })).status()).toBe(200);
  };
  await post(people, 1);
  return { cameraId, lineId, post };
}

interface Link {
  id: string;
  url: string;
}

async function share(request: APIRequestContext, owner: Owner, kind: "report" | "widget"): Promise<Link> {
  const created = await request.post("/api/insights/shares", { data: { name: "Board", kind, view: { cameraIds: [owner.cameraId], period: "today" } } });
  expect(created.status()).toBe(201);
  return (await created.json()) as Link;
}

/** Waits for the shared report to count `entries` (the hourly and daily rollups follow the events by a moment). */
async function untilCounted(request: APIRequestContext, link: Link, entries: number) {
  const api = `/api/insights/shared/${link.id}${new URL(link.url, "http://localhost").search}`;
  await expect.poll(async () => ((await (await request.get(api)).json()) as { totals: { entries: number } }).totals.entries, { timeout: 30_000 }).toBe(entries);
}

/** A browser context of its own: nobody signed in. */
async function freshPage(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, ...options });
  return context.newPage();
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help}`);
  expect(serious).toEqual([]);
}

async function expectReport(page: Page, link: string, cameraName: string) {
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: cameraName })).toBeVisible();
  await expect(page.locator('[data-total="Entries"]')).toHaveText("3");
  await expect(page.getByRole("img", { name: /Entries and exits by/ }).locator("svg")).toBeVisible();
  await expect(page.getByRole("region", { name: "Lines table" }).getByRole("row", { name: /Main door/ })).toContainText("3");
  expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");
  await expectNoSeriousViolations(page);
}

test.describe("a shared Insights report", () => {
  test("opens in a fresh browser without a session, and not once revoked", async ({ request, browser }) => {
    const owner = await ownerWithCounts(request, "Church door", 3);
    const link = await share(request, owner, "report");
    await untilCounted(request, link, 3);
    const page = await freshPage(browser);
    await expectReport(page, link.url, "Church door");

    expect((await request.delete(`/api/insights/shares/${link.id}`)).status()).toBe(204);
    const gone = await page.goto(link.url);
    expect(gone!.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("lays out on a phone", async ({ request, browser }) => {
    const owner = await ownerWithCounts(request, "Shop entrance", 3);
    const link = await share(request, owner, "report");
    await untilCounted(request, link, 3);
    const page = await freshPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await expectReport(page, link.url, "Shop entrance");
    // Nothing wider than the screen but the tables' and charts' own scrolling boxes.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe("the lobby widget", () => {
  test("shows today's visitors framed by another page, and follows new counts every 30 seconds", async ({ request, browser }) => {
    const owner = await ownerWithCounts(request, "Foyer", 3);
    const link = await share(request, owner, "widget");
    await untilCounted(request, link, 3);
    const page = await freshPage(browser);
    await page.clock.install();
    const widgetUrl = new URL(link.url, test.info().project.use.baseURL).toString();
    // Another site's page framing the widget, as a lobby screen's page does: served from another origin on loopback.
    const lobby = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Lobby</title><iframe title="Visitors" src="${widgetUrl}" width="800" height="600"></iframe>`),
    );
    await new Promise<void>((resolve) => lobby.listen(0, "127.0.0.1", resolve));
    await page.goto(`http://127.0.0.1:${(lobby.address() as AddressInfo).port}/`);
    const widget = page.frameLocator("iframe");
    await expect(widget.locator('[data-widget="entries"]')).toHaveText("3");
    await expect(widget.getByText("visitors today")).toBeVisible();
    // See-through: no background, and no color-scheme of its own that would make the browser paint one behind the frame.
    const look = await page
      .frames()[1]!
      .evaluate(() => ({ background: getComputedStyle(document.body).backgroundColor, scheme: getComputedStyle(document.documentElement).colorScheme }));
    expect(look).toEqual({ background: "rgba(0, 0, 0, 0)", scheme: "normal" });

    await owner.post(2, 100);
    await untilCounted(request, link, 5);
    await page.clock.fastForward(30_000);
    await expect(widget.locator('[data-widget="entries"]')).toHaveText("5");
    await new Promise<void>((resolve) => lobby.close(() => resolve()));
  });

  test("fits a phone", async ({ request, browser }) => {
    const owner = await ownerWithCounts(request, "Hall", 3);
    const link = await share(request, owner, "widget");
    await untilCounted(request, link, 3);
    const page = await freshPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(link.url);
    await expect(page.locator('[data-widget="entries"]')).toHaveText("3");
    await expect(page.locator('[data-widget="entries"]')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
