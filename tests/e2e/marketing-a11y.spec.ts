// Accessibility scans of the public site with axe-core: no serious or critical violation on any page,
// in its first state, its animated end state, and with the phone menu open.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const PUBLIC_PAGES = ["/", "/pricing", "/downloads", "/eula", "/about", "/contact"];

async function seriousViolations(page: Page): Promise<string[]> {
  await expect(page.locator('[data-enhanced="true"]')).toHaveCount(1);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => node.target.join(" ")).join("\n  ")}`,
    );
}

for (const path of PUBLIC_PAGES) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(path);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("the home page at the end of its animations has none either", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await page.getByRole("tab", { name: "Healthcare" }).click();
  await page.locator('[data-section="wildlife"]').scrollIntoViewIfNeeded();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the open menu has none", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator('[data-enhanced="true"]')).toHaveCount(1);
    await page.getByRole("button", { name: "Open menu" }).click();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
