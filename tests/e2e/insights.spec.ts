// The Insights page (issue 31) as a facilities manager uses it, on a desktop and on a phone (390×844, touch): reached
// from the studio's top bar; a camera with a door line and crossings made three hours ago; the report's totals, its
// charts' tables and keyboard access, the filter kept in the URL across a reload; a site with a weekly service and its
// attendance; the CSV export; a share link opened in a fresh browser with no session; and no axe violations.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

test.describe.configure({ timeout: 90_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };
const ENTRIES = 7;
const EXITS = 3;

interface Seeded {
  cameraId: string;
  lineId: string;
  /** When the crossings happened: three hours ago at minute 20–40 of that hour, so its service (that hour) has ended. */
  at: Date;
}

/** Signs up, then through the API (as the studio does): a camera, a line "Door" on it, and its crossings. */
async function seed(page: Page): Promise<Seeded> {
  await signUpInBrowser(page);
  const headers = { origin: new URL(page.url()).origin };
  const camera = await page.request.post("/api/cameras", { data: { name: "Entrance cam", deviceId: "insights-e2e" }, headers });
  expect(camera.status()).toBe(201);
  const cameraId = ((await camera.json()) as { id: string }).id;
  const line = await page.request.post(`/api/cameras/${cameraId}/lines`, { data: { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } }, headers });
  expect(line.status()).toBe(201);
  const lineId = ((await line.json()) as { id: string }).id;
  const at = new Date(Date.now() - 3 * 3_600_000);
  at.setUTCMinutes(20, 0, 0);
  const event = (direction: "in" | "out", trackId: number) => ({
    type: "line.crossed",
    lineId,
    direction,
    trackId,
    label: "person",
    at: at.getTime() + trackId * 60_000,
    box: { x: 0.4, y: 0.2, w: 0.1, h: 0.5 },
  });
  const events = [...Array.from({ length: ENTRIES }, (_, i) => event("in", i + 1)), ...Array.from({ length: EXITS }, (_, i) => event("out", 10 + i))];
  const posted = await page.request.post(`/api/cameras/${cameraId}/vision-events`, { data: { events }, headers });
  expect(posted.status()).toBe(200);
  return { cameraId, lineId, at };
}

async function openInsights(page: Page) {
  await page.goto("/studio");
  if ((page.viewportSize()?.width ?? 1280) < 640) {
    // A phone's top bar is full: the link is in its menu's sheet.
    await expect(page.getByRole("banner").getByRole("link", { name: "Insights" })).toBeHidden();
    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    await page
      .getByRole("dialog", { name: "Settings" })
      .getByRole("link", { name: /^Insights/ })
      .click();
  } else {
    await page.getByRole("banner").getByRole("link", { name: "Insights" }).click();
  }
  await expect(page).toHaveURL(/\/studio\/insights$/);
  await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
}

/** The figure of a total, waited for: counts are rolled up as they arrive, by a job. */
async function expectEntries(page: Page, entries: number) {
  await expect
    .poll(
      async () => {
        const text = await page
          .getByTestId("total-entries")
          .textContent({ timeout: 5_000 })
          .catch(() => null);
        if (text?.includes(String(entries))) return true;
        await page.reload();
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`)).toEqual([]);
}

test("anonymous visitors are sent to sign in", async ({ page }) => {
  await page.goto("/studio/insights?period=today");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fstudio%2Finsights%3Fperiod%3Dtoday$/);
});

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    test("with no counts it says how to get some, and links back to the studio", async ({ page }) => {
      await signUpInBrowser(page);
      await openInsights(page);
      const empty = page.getByTestId("insights-empty");
      await expect(empty).toContainText("No counts in this period");
      await expectNoViolations(page);

      // Settings: a retention under a week is said under its field; a good one is saved.
      await page.getByRole("button", { name: "Settings" }).click();
      const settings = page.getByRole("dialog", { name: "Insights settings" });
      const days = settings.getByLabel("Keep minute-by-minute counts for (days)");
      await days.fill("3");
      await settings.getByRole("button", { name: "Save" }).click();
      await expect(days).toHaveAccessibleDescription(/Keep minutes for at least 7 days/);
      await days.fill("30");
      await settings.getByRole("button", { name: "Save" }).click();
      await expect(toastWith(page, "Settings saved")).toBeVisible();
      await expect(settings).toBeHidden();
      expect(((await (await page.request.get("/api/insights/settings")).json()) as { minuteRetentionDays: number }).minuteRetentionDays).toBe(30);

      await empty.getByRole("link", { name: "Open the studio" }).click();
      await expect(page).toHaveURL(/\/studio$/);
    });

    test("the report shows the counts, its charts as tables and by keyboard, and keeps its filter in the URL", async ({ page }) => {
      await seed(page);
      await openInsights(page);
      await expectEntries(page, ENTRIES);
      await expect(page.getByTestId("total-exits")).toContainText(String(EXITS));
      // The first visit saved the browser's time zone as the Insights time zone.
      const settings = (await (await page.request.get("/api/insights/settings")).json()) as { saved: boolean; timeZone: string };
      expect(settings).toMatchObject({ saved: true, timeZone: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone) });

      // The lines chart as a table: the door with its ins and outs.
      const lines = page.getByTestId("chart-lines");
      await lines.getByRole("button", { name: "Table" }).click();
      await expect(lines.getByRole("row", { name: /Door/ }).getByRole("cell")).toHaveText([String(ENTRIES), String(EXITS)]);
      await lines.getByRole("button", { name: "Table" }).click();

      // The charts by keyboard: focused, labelled with a summary; the arrow keys step through the points, each said.
      const traffic = page.getByTestId("chart-traffic").getByTestId("chart");
      await expect(traffic).toHaveAccessibleName(new RegExp(`${ENTRIES} entries and ${EXITS} exits`));
      await page.getByTestId("chart-lines").getByTestId("chart").focus();
      await page.keyboard.press("ArrowRight");
      await expect(lines.getByTestId("chart-point")).toHaveText(`Door (Entrance cam): In ${ENTRIES}, Out ${EXITS}`);
      await traffic.focus();
      await page.keyboard.press("End");
      await expect(page.getByTestId("chart-traffic").getByTestId("chart-point")).toHaveText(/^.+: Entries \d+, Exits \d+$/);

      // Where people go: the camera's track heatmap (no tracks were sent, only crossings).
      await expect(page.getByTestId("where-people-go").getByRole("heading", { name: "Entrance cam" })).toBeVisible();
      await expect(page.getByTestId("where-people-go")).toContainText("No tracks in this period");

      // The period goes into the URL, and a reload reads it back.
      await page.getByLabel("Period", { exact: true }).selectOption("today");
      await expect(page).toHaveURL(/[?&]period=today/);
      await page.reload();
      await expect(page.getByLabel("Period", { exact: true })).toHaveValue("today");
      await expect(page.getByLabel("Resolution", { exact: true }).locator("option[value=minute]")).toBeEnabled();
      await page.getByLabel("Period", { exact: true }).selectOption("last30Days");
      await expect(page.getByLabel("Resolution", { exact: true }).locator("option[value=minute]")).toBeDisabled();

      await expectNoViolations(page);
    });

    // The e2e server has no mail server: scheduling an e-mail report is refused with 503, which the page shows.
    test.describe(() => {
      test.use({ allowConsoleErrors: [/status of 503 \(Service Unavailable\)/] });
      test("a site with a weekly service shows its attendance; the report exports as CSV and opens from a share link", async ({ page, browser }) => {
        const { at } = await seed(page);
        await openInsights(page);
        await page.getByRole("tab", { name: "Sites and services" }).click();

        // A site: a missing camera is said under the field before anything is sent.
        await page.getByRole("button", { name: "Add site" }).click();
        const siteDialog = page.getByRole("dialog", { name: "Add site" });
        await siteDialog.getByLabel("Name").fill("Main hall");
        await siteDialog.getByRole("button", { name: "Add site" }).click();
        await expect(siteDialog.getByText("Choose at least one camera")).toBeVisible();
        await siteDialog.getByLabel("Time zone").selectOption("UTC");
        await siteDialog.getByRole("checkbox", { name: "Entrance cam" }).check();
        await siteDialog.getByRole("checkbox", { name: "Door" }).check();
        await siteDialog.getByLabel("Capacity (optional)").fill("120");
        await siteDialog.getByRole("button", { name: "Add site" }).click();
        await expect(toastWith(page, "Site added")).toBeVisible();
        await expect(siteDialog).toBeHidden();

        // A weekly service around the crossings (the hour they happened in, UTC, on that weekday).
        const hour = String(at.getUTCHours()).padStart(2, "0");
        const weekday = new Intl.DateTimeFormat(await page.evaluate(() => navigator.language), { weekday: "long", timeZone: "UTC" }).format(at);
        await page.getByRole("button", { name: "Add service or hours" }).click();
        const windowDialog = page.getByRole("dialog", { name: "Add service or hours" });
        await windowDialog.getByLabel("Name").fill("Morning service");
        await windowDialog.getByRole("checkbox", { name: weekday }).check();
        await windowDialog.getByLabel("Starts at").fill(`${hour}:00`);
        await windowDialog.getByLabel("Ends at").fill(`${hour}:59`);
        await windowDialog.getByRole("button", { name: "Add", exact: true }).click();
        await expect(windowDialog).toBeHidden();
        await expect(page.getByTestId("windows")).toContainText("Morning service");

        // Its attendance: the occurrence with its entries.
        const attendance = page.getByTestId("chart-attendance");
        await attendance.getByRole("button", { name: "Table" }).click();
        await expect(
          attendance
            .getByRole("row", { name: /Morning service/ })
            .last()
            .getByRole("cell")
            .first(),
        ).toHaveText(String(ENTRIES));

        await expectNoViolations(page);

        // The site's report, exported as CSV.
        await page.getByRole("tab", { name: "Report" }).click();
        await page.getByLabel("Site", { exact: true }).selectOption({ label: "Main hall" });
        await expect(page).toHaveURL(/[?&]siteId=/);
        await expect(page.getByTestId("report-title")).toHaveText("Main hall");
        await expectEntries(page, ENTRIES);
        await page.getByRole("button", { name: "Export" }).click();
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "CSV" }).click()]);
        expect(download.suggestedFilename()).toMatch(/\.csv$/);
        const csv = await (await download.createReadStream()).toArray();
        expect(Buffer.concat(csv).toString("utf8")).toContain("Door");

        // A share link, opened in a fresh browser with no session.
        await page.getByRole("button", { name: "Share" }).click();
        const shareDialog = page.getByRole("dialog", { name: "Share" });
        const expires = shareDialog.getByLabel("Expires in (days)");
        await expires.fill("0");
        await shareDialog.getByRole("button", { name: "Create link" }).click();
        await expect(expires).toHaveAccessibleDescription("Expires in at least 1 day");
        await expires.fill("7");
        await shareDialog.getByRole("button", { name: "Create link" }).click();
        await expect(toastWith(page, "Link created")).toBeVisible();
        const link = await shareDialog.getByTestId("share-link").first().getAttribute("href");
        expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/insights\/shared\//);
        const stranger = await browser.newContext();
        try {
          const shared = await stranger.newPage();
          await shared.goto(link!);
          await expect(shared).not.toHaveURL(/\/login/);
          await expect(shared.getByText("Main hall").first()).toBeVisible();
          await expect(shared.getByText(String(ENTRIES)).first()).toBeVisible();
        } finally {
          await stranger.close();
        }
        // Revoked: the list says so.
        await shareDialog.getByRole("button", { name: /^Revoke / }).click();
        await expect(toastWith(page, "Link revoked")).toBeVisible();
        await expect(shareDialog.getByTestId("shares")).toContainText("revoked");
        // Not Escape: that closes the toast on top first.
        await shareDialog.getByRole("button", { name: "Close" }).click();
        await expect(shareDialog).toBeHidden();

        // E-mail reports: a bad address under the field; the server's refusal (no mail server here) as a toast.
        await page.getByRole("button", { name: "E-mail reports" }).click();
        const mailDialog = page.getByRole("dialog", { name: "E-mail reports" });
        const recipients = mailDialog.getByLabel(/^Recipients/);
        await recipients.fill("not-an-address");
        await mailDialog.getByRole("button", { name: "Schedule" }).click();
        await expect(recipients).toHaveAccessibleDescription("Enter valid e-mail addresses");
        await recipients.fill("board@example.com");
        await mailDialog.getByRole("button", { name: "Schedule" }).click();
        await expect(toastWith(page, "Couldn't schedule the report")).toContainText("E-mail is not configured");
      });
    });
  });
}

/** A time zone where it is about noon now: "today" and "yesterday" then stay the same days throughout the test. */
function zoneAtNoon(): string {
  const offset = 12 - new Date().getUTCHours(); // -11 … +12 hours
  return offset === 0 ? "Etc/UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`; // Etc/GMT-3 is UTC+3
}

test.describe(() => {
  test.use({ timezoneId: zoneAtNoon() });

  test("today's totals say how they compare with the previous period", async ({ page }) => {
    await signUpInBrowser(page);
    const headers = { origin: new URL(page.url()).origin };
    const camera = await page.request.post("/api/cameras", { data: { name: "Side door cam", deviceId: "insights-compare" }, headers });
    const cameraId = ((await camera.json()) as { id: string }).id;
    const line = await page.request.post(`/api/cameras/${cameraId}/lines`, { data: { name: "Side door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } }, headers });
    const lineId = ((await line.json()) as { id: string }).id;
    // Four entries yesterday evening and six this morning, in the browser's day (the page's time zone).
    const midnight = await page.evaluate(() => new Date().setHours(0, 0, 0, 0));
    const crossing = (at: number, trackId: number) => ({ type: "line.crossed", lineId, direction: "in", trackId, label: "person", at, box: { x: 0.4, y: 0.2, w: 0.1, h: 0.5 } });
    const events = [
      ...Array.from({ length: 4 }, (_, i) => crossing(midnight - 3 * 3_600_000 + i * 60_000, i + 1)),
      ...Array.from({ length: 6 }, (_, i) => crossing(midnight + 3 * 3_600_000 + i * 60_000, 10 + i)),
    ];
    expect((await page.request.post(`/api/cameras/${cameraId}/vision-events`, { data: { events }, headers })).status()).toBe(200);

    await page.goto("/studio/insights?period=today");
    await expectEntries(page, 6);
    await expect(page.getByTestId("total-entries")).toContainText(/\+50\s?% vs previous period \(4\)/);
    // Sites and back: the report stays as it was, not asked for again.
    let asked = 0;
    page.on("request", (request) => void (request.url().includes("/api/insights/report") && asked++));
    await page.getByRole("tab", { name: "Sites and services" }).click();
    await expect(page.getByTestId("total-entries")).toBeHidden();
    await page.getByRole("tab", { name: "Report" }).click();
    await expect(page.getByTestId("total-entries")).toContainText(/\+50\s?%/);
    expect(asked).toBe(0);
    // Yesterday: nothing the day before to compare with, so the previous period's figure is said as it is.
    await page.getByLabel("Period", { exact: true }).selectOption("yesterday");
    await expect(page.getByTestId("total-entries").locator("p").nth(1)).toHaveText("4");
    await expect(page.getByTestId("total-entries")).toContainText("0 in the previous period");
  });
});
