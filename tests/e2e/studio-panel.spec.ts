// The desktop side panel's five tabs: every one wholly visible and usable from 1280 px wide up, measured
// with a classic scrollbar taking its width (Playwright hides scrollbars by default, which hid this), and
// reachable with the arrow keys at every width the panel shows at.
import type { Locator, Page } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../support/chromium";
import { expect, signUpInBrowser, test } from "./fixtures";

const TABS = ["AI", "Detections", "Assistant", "Automate", "Settings"];

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    ignoreDefaultArgs: ["--hide-scrollbars"],
  },
});

const panel = (page: Page) => page.getByRole("complementary", { name: "Studio panel" });

/** The tab lies inside the panel and inside the part of the tab strip that shows (the strip may scroll sideways). */
async function expectWhollyShown(page: Page, tab: Locator) {
  const outer = (await panel(page).boundingBox())!;
  const strip = await panel(page)
    .getByRole("tablist", { name: "Studio panel" })
    .evaluate((el) => ({ left: el.getBoundingClientRect().left + el.clientLeft, width: el.clientWidth }));
  const box = (await tab.boundingBox())!;
  const name = await tab.textContent();
  expect(box.x, `${name} starts inside the panel`).toBeGreaterThanOrEqual(Math.max(outer.x, strip.left) - 0.5);
  expect(box.x + box.width, `${name} ends inside the panel`).toBeLessThanOrEqual(Math.min(outer.x + outer.width, strip.left + strip.width) + 0.5);
}

/** Puts a classic scrollbar on the page, as a page taller than the window has, and returns its width. */
async function withScrollbar(page: Page): Promise<number> {
  await page.addStyleTag({ content: "html { overflow-y: scroll; }" });
  return page.evaluate(() => window.innerWidth - document.documentElement.clientWidth);
}

test.beforeEach(async ({ page }) => {
  await signUpInBrowser(page);
});

for (const [width, height] of [
  [1280, 800],
  [1440, 900],
] as const) {
  test(`at ${width}×${height} with a scrollbar every side-panel tab is wholly inside the panel and opens its panel`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    expect(await withScrollbar(page)).toBeGreaterThan(0);
    const list = panel(page).getByRole("tablist", { name: "Studio panel" });
    await expect(list).toBeVisible();
    expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth), "the tab strip needs no sideways scrolling").toBeLessThanOrEqual(0);
    for (const name of TABS) {
      const tab = list.getByRole("tab", { name, exact: true });
      await expectWhollyShown(page, tab);
      // Its label is not cut inside the button either.
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await tab.click();
      await expect(tab).toHaveAttribute("aria-selected", "true");
      await expect(panel(page).getByRole("tabpanel")).toBeVisible();
    }
  });
}

// 1024 is the narrowest window the panel shows in; "squeezed" narrows the panel itself until the tabs
// overflow (as large text or zoom would), where the strip scrolls and the keys must still reach them all.
for (const [width, squeezed] of [
  [1024, false],
  [1280, false],
  [1440, false],
  [1280, true],
] as const) {
  test(`at ${width} px${squeezed ? " with the tabs overflowing" : ""} the arrow keys walk the tabs to Settings and back`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await withScrollbar(page);
    if (squeezed) await page.addStyleTag({ content: 'aside[aria-label="Studio panel"] { width: 14rem !important; }' });
    const list = panel(page).getByRole("tablist", { name: "Studio panel" });
    if (squeezed) expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await list.getByRole("tab", { name: "AI", exact: true }).focus();
    for (const name of TABS.slice(1)) {
      await page.keyboard.press("ArrowRight");
      await expect(list.getByRole("tab", { name, exact: true })).toBeFocused();
    }
    const settings = list.getByRole("tab", { name: "Settings", exact: true });
    await expect(settings).toHaveAttribute("aria-selected", "true");
    await expect(panel(page).getByRole("tabpanel", { name: "Settings" })).toBeVisible();
    // The focused tab is scrolled into the strip's view, whatever the width.
    await expectWhollyShown(page, settings);
    await page.keyboard.press("ArrowRight");
    await expect(list.getByRole("tab", { name: "AI", exact: true })).toBeFocused();
    await expectWhollyShown(page, list.getByRole("tab", { name: "AI", exact: true }));
    await page.keyboard.press("ArrowLeft");
    await expect(settings).toBeFocused();
    await expectWhollyShown(page, settings);
  });
}
