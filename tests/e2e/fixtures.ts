// The test fixture every browser test uses: it fails a test on any unexpected console error or page error.
import { randomBytes } from "node:crypto";
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";

export const E2E_ADMIN = { username: "e2e_admin", password: "e2e-admin-password" };

export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleErrors: string[] }>({
  allowConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ context, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      context.on("console", (message) => {
        if (message.type() === "error" && !allowConsoleErrors.some((pattern) => pattern.test(message.text()))) errors.push(message.text());
      });
      context.on("weberror", (error) => errors.push(`pageerror: ${error.error().message}`));
      await use(errors);
      expect(errors, "unexpected browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export function uniqueUsername(prefix = "e2e"): string {
  return `${prefix}_${randomBytes(4).toString("hex")}`;
}

export async function signUpInBrowser(page: Page, username = uniqueUsername(), password = "secret-pass") {
  await page.goto("/signup");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  return { username, password };
}

/**
 * The toast on screen with this title: the item in Radix's toast viewport, which stays for the toast's
 * whole 5 s. Not getByRole("status"): that role is only on Radix's screen-reader copy, which is removed
 * after one second, so a poll on a busy machine can miss it (it did: "Count updated" was never seen). A
 * CSS locator, because a modal dialog aria-hides the viewport when the toaster was mounted before it.
 */
export function toastWith(page: Page, title: string | RegExp) {
  return page.locator('[role="region"][aria-label^="Notifications"] li').filter({ hasText: title });
}

/** Adds the fake webcam (the known 640×480 test picture) as a camera and waits until it plays. */
export async function addWebcam(page: Page) {
  await page.getByRole("button", { name: "Add Camera" }).first().click();
  await page.getByRole("menuitem", { name: "Add Camera" }).click();
  await page.getByRole("button", { name: "Select Webcam" }).click();
  const dialog = page.getByRole("dialog", { name: "Select Webcam" });
  await dialog.getByRole("listitem").first().getByRole("button").click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBe(640);
}

/** The desktop side panel's AI tab (a second copy lives in the mobile sheets). */
export const aiTab = (page: Page) => page.getByRole("complementary", { name: "Studio panel" }).getByTestId("ai-tab");

/**
 * Saves an own key through the AI tab and returns it. The fake Moondream picks its behaviour from the key's
 * prefix (`slow-2000` answers after 2 s; see tests/fakes/moondream/server.ts) and its answers for the key
 * can be scripted, so parallel tests never share either.
 */
export async function saveOwnKey(page: Page, prefix = "e2e-ai"): Promise<string> {
  const key = `${prefix}-${randomBytes(6).toString("hex")}`;
  const tab = aiTab(page);
  await tab.getByLabel("Your Moondream API key").fill(key);
  await tab.getByRole("button", { name: "Save" }).click();
  await expect(toastWith(page, "API Key Saved")).toBeVisible();
  await expect(tab.getByText("API key saved")).toBeVisible();
  return key;
}

/** The fake Moondream's next answers (caption or query text) for this key, in order. */
export async function scriptAnswers(page: Page, key: string, answers: string[]) {
  const control = new URL("/__fake/script", process.env.E2E_MOONDREAM_ENDPOINT).toString();
  expect((await page.request.post(control, { data: { key, answers } })).ok()).toBe(true);
}

/** Calls the fake Moondream has received with this key (its `/__fake/stats`): how a test proves a feature made none. */
export async function moondreamCalls(request: APIRequestContext, key: string): Promise<number> {
  const stats = new URL(`/__fake/stats?key=${encodeURIComponent(key)}`, process.env.E2E_MOONDREAM_ENDPOINT).toString();
  return ((await (await request.get(stats)).json()) as { calls: number }).calls;
}
