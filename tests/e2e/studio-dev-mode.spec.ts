// `npm run dev` serves a working studio: React's StrictMode runs every effect, its cleanup, then the effect
// again, so the studio the page made first is disposed at once; the page must still list the cameras and
// show the webcam (a disposed studio once left the sidebar on "Loading cameras..." for good).
import { startApp, startTestPostgres, tempDir, type TestApp, type TestPostgres } from "../support/stack";
import { addWebcam, expect, test, uniqueUsername } from "./fixtures";

let pg: TestPostgres;
let app: TestApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  pg = await startTestPostgres();
  app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("e2e-dev-mode") }, { dev: true });
});

test.afterAll(async () => {
  await app?.stop();
  await pg?.stop();
});

test("the studio works under React's development build and StrictMode", async ({ browser }) => {
  // Vite compiles each module on its first request: the first page of a dev server is slow on a small machine.
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: app.url, permissions: ["camera"] });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const password = "secret-pass";
  await page.goto("/signup");
  await page.getByLabel("Username").fill(uniqueUsername("dev"));
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/studio$/, { timeout: 120_000 });
  await expect(page.getByText("No cameras added yet")).toBeVisible({ timeout: 60_000 });
  await addWebcam(page);
  await expect(page.getByTestId("camera-card").getByTestId("status-dot")).toHaveAttribute("data-online", "true");
  // Hotkeys are bound once the studio starts: "?" opens the help.
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});
