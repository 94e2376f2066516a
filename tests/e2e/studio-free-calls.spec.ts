// The free-call count the studio shows is the server's (issue 27): calls spent elsewhere (a monitor on the server,
// another tab) show in the AI tab with no reload, on a desktop and in the phone's AI sheet; and the monitor form
// says what a monitor costs before it starts, in AI calls an hour and how long the free calls left last.
import type { Locator, Page } from "@playwright/test";
import { aiTab, expect, saveOwnKey, signUpInBrowser, test } from "./fixtures";
import { seedIpCamera, seedSharedCallsUsed } from "./seed";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

// The count is reread every 10 s (ACCOUNT_POLL_MS); seeding opens the test's own database connection first.
test.describe.configure({ timeout: 90_000 });

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    async function freeCalls(page: Page): Promise<Locator> {
      if (device === "desktop") return aiTab(page).getByTestId("free-calls");
      await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).click();
      return page.getByRole("dialog", { name: "AI" }).getByTestId("free-calls");
    }

    test("the AI tab shows the server's free-call count, calls spent elsewhere included, with no reload", async ({ page }) => {
      const { username } = await signUpInBrowser(page);
      const shown = await freeCalls(page);
      await expect(shown).toHaveText("0 of 100 free calls used");
      // Spent on the server meanwhile (as a monitor's ticks or another tab would): the tab catches up by itself.
      await seedSharedCallsUsed(username, 23);
      await expect(shown).toHaveText("23 of 100 free calls used", { timeout: 30_000 });
    });
  });
}

test("the monitor form says what the monitor will cost before it starts: AI calls an hour and how long the free calls last", async ({ page }) => {
  const { username } = await signUpInBrowser(page);
  await seedIpCamera(username, "Rack cam");
  await seedSharedCallsUsed(username, 23);
  await page.reload();
  await page.getByRole("tab", { name: "Automate" }).click();
  const form = page.getByRole("form", { name: "New monitor" });
  const cost = form.getByTestId("monitor-cost");
  await expect(cost).toHaveText("About 720 AI calls an hour: your 77 free calls last about 6 minutes");
  await form.getByLabel("Interval (seconds)").fill("10");
  await expect(cost).toHaveText("About 360 AI calls an hour: your 77 free calls last about 13 minutes");
  await form.getByLabel("Kind").selectOption({ label: "Story" });
  await expect(cost).toHaveText("About 360 AI calls an hour: your 77 free calls last about 13 minutes");

  await page.getByRole("tab", { name: "AI", exact: true }).click();
  await saveOwnKey(page);
  await page.getByRole("tab", { name: "Automate" }).click();
  // The form opens afresh (interval 5 s) with the key now saved.
  await expect(cost).toHaveText("About 720 AI calls an hour: uses your own key");
});

test.describe("phone", () => {
  test.use(PHONE);

  test("the AI sheet's monitor form says what the monitor will cost before it starts", async ({ page }) => {
    const { username } = await signUpInBrowser(page);
    await seedIpCamera(username, "Rack cam");
    await seedSharedCallsUsed(username, 23);
    await page.reload();
    await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).tap();
    const sheet = page.getByRole("dialog", { name: "AI" });
    await sheet.getByRole("tab", { name: "Automate" }).tap();
    const cost = sheet.getByRole("form", { name: "New monitor" }).getByTestId("monitor-cost");
    await expect(cost).toHaveText("About 720 AI calls an hour: your 77 free calls last about 6 minutes");
    await sheet.getByLabel("Interval (seconds)").fill("10");
    await expect(cost).toHaveText("About 360 AI calls an hour: your 77 free calls last about 13 minutes");
  });
});
