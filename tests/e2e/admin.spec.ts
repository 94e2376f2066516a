// The admin dashboard lists new users and submitted feature requests; non-admins are refused.
import { E2E_ADMIN, expect, signUpInBrowser, test, uniqueUsername } from "./fixtures";

test("lists a new user and their feature request", async ({ page, browser }) => {
  const context = await browser.newContext();
  const userPage = await context.newPage();
  const username = uniqueUsername("reqr");
  await signUpInBrowser(userPage, username);
  const title = `Timelapse export ${username}`;
  const response = await userPage.request.post("/api/feature-requests", {
    data: { title, description: "Export a timelapse as MP4." },
    headers: { origin: new URL(userPage.url()).origin },
  });
  expect(response.status()).toBe(201);
  await context.close();

  await page.goto("/login");
  await page.getByLabel("Username").fill(E2E_ADMIN.username);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await page.getByRole("link", { name: "Admin" }).click();
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Studio" })).toHaveAttribute("href", "/studio");
  const row = page.getByRole("row").filter({ hasText: username });
  await expect(row).toContainText("Not Set");
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);

  await page.getByRole("link", { name: "Feature Requests" }).click();
  const card = page.getByRole("listitem").filter({ hasText: title });
  await expect(card).toContainText("Export a timelapse as MP4.");
  await expect(card).toContainText(username);
  await expect(card).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM)/);
});

test.describe("refused", () => {
  test.use({ allowConsoleErrors: [/status of 403/] });

  test("a non-admin gets a 403 page", async ({ page }) => {
    await signUpInBrowser(page);
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  });
});
