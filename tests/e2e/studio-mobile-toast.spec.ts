// Toasts on a phone cover no control: they stand above the bottom bar and the studio keeps its controls
// above them (the full-screen Settings menu and the sheets included); a tap outside them, off any control,
// dismisses them.
import type { Page } from "@playwright/test";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/**
 * The controls a finger could reach that the toast's box overlaps: every visible button, link, field and
 * widget outside the toast, clipped to what its scrolling ancestors actually show.
 */
function controlsUnderToast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const toast = document.querySelector('[role="region"][aria-label^="Notifications"] li');
    if (!toast) throw new Error("no toast on screen");
    const t = toast.getBoundingClientRect();
    const selector =
      'button, a[href], input, select, textarea, [role="button"], [role="tab"], [role="slider"], [role="switch"], [role="menuitem"], [role="radio"], [role="checkbox"]';
    const hits: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (toast.contains(element)) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden" || style.display === "none") continue;
      let { left, top, right, bottom } = element.getBoundingClientRect();
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const s = getComputedStyle(parent);
        if (s.display === "none") right = left; // not rendered at all
        if (s.overflowX !== "visible" || s.overflowY !== "visible") {
          const p = parent.getBoundingClientRect();
          left = Math.max(left, p.left);
          top = Math.max(top, p.top);
          right = Math.min(right, p.right);
          bottom = Math.min(bottom, p.bottom);
        }
      }
      if (right <= left || bottom <= top) continue;
      if (left < t.right && right > t.left && top < t.bottom && bottom > t.top) {
        hits.push(element.getAttribute("aria-label") || element.textContent?.trim() || element.tagName);
      }
    }
    return hits;
  });
}

/** Signs up and holds time still once the sign-in toast is up, so its 5 s timer cannot close it: only a tap may. */
async function signUpWithToastHeld(page: Page) {
  await page.clock.install();
  await signUpInBrowser(page);
  const toast = toastWith(page, "Account created!");
  await expect(toast).toBeVisible();
  await page.clock.pauseAt(Date.now() + 1000);
  return toast;
}

test("the sign-in toast covers no control of the studio or its Settings menu, and a tap outside dismisses it", async ({ page }) => {
  const toast = await signUpWithToastHeld(page);

  const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
  const toastBox = (await toast.boundingBox())!;
  const navBox = (await nav.boundingBox())!;
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(navBox.y);
  expect(await controlsUnderToast(page)).toEqual([]);

  await page.getByRole("button", { name: "Menu" }).tap();
  const menu = page.getByRole("dialog", { name: "Settings" });
  await expect(menu.getByRole("heading", { name: "Add Source" })).toBeVisible();
  await expect(toast).toBeVisible();
  expect(await controlsUnderToast(page)).toEqual([]);
  // The menu's top (Add Source, the camera list) is free: it ends above the toast.
  const menuBox = (await menu.boundingBox())!;
  expect(menuBox.y + menuBox.height).toBeLessThanOrEqual((await toast.boundingBox())!.y + 1);

  await menu.getByRole("heading", { name: "Add Source" }).tap();
  await expect(toast).toBeHidden();
  await expect(menu).toBeVisible();
  // With the toast gone the menu fills the screen again.
  await expect.poll(async () => Math.round((await menu.boundingBox())!.height)).toBe(844);
});

test("a tap on a control leaves the toast, and the sheet it opens stands above the toast", async ({ page }) => {
  const toast = await signUpWithToastHeld(page);
  const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
  await nav.getByRole("button", { name: "Capture" }).tap();
  const sheet = page.getByRole("dialog", { name: "Capture Controls" });
  await expect(sheet).toBeVisible();
  await expect(toast).toBeVisible();
  expect(await controlsUnderToast(page)).toEqual([]);
  expect((await sheet.boundingBox())!.y + (await sheet.boundingBox())!.height).toBeLessThanOrEqual((await toast.boundingBox())!.y + 1);

  await sheet.getByRole("heading", { name: "Capture Controls" }).tap();
  await expect(toast).toBeHidden();
  await expect(sheet).toBeVisible();
});
