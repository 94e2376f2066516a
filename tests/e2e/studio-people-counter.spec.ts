// The downloadable People Counter: saved from /people-counter.html, opened from a file:// URL with the
// fake webcam, counting through the fake Moondream with a key kept in localStorage, then a CSV export.
// (Named studio-* so it runs in the project whose Chromium has the fake camera.)
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "./fixtures";

test("people-counter.html counts people from a file URL and exports a CSV", async ({ page, request, baseURL }) => {
  const served = await request.get(`${baseURL}/people-counter.html`);
  expect(served.status()).toBe(200);
  const html = await served.text();
  // Self-contained: no external scripts, styles or imports.
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|import\(/);
  const file = path.join(os.tmpdir(), `people-counter-${process.pid}-${Date.now()}.html`);
  writeFileSync(file, html);

  const endpoint = process.env.E2E_MOONDREAM_ENDPOINT!;
  const detectCalls: { key: string | undefined; object: unknown }[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/detect")) detectCalls.push({ key: r.headers()["x-moondream-auth"], object: (r.postDataJSON() as { object?: unknown }).object });
  });

  await page.goto(pathToFileURL(file).href);
  await page.getByLabel("Moondream endpoint").fill(endpoint);
  await page.getByLabel("Moondream API key").fill("people-counter-key");
  await page.getByLabel("Count every (seconds)").fill("1");
  await page.getByRole("button", { name: "Start counting" }).click();

  await expect(page.getByRole("status")).toContainText(/Counted \d+ (person|people)/, { timeout: 20_000 });
  await expect(page.getByTestId("current")).toHaveText(/^\d+$/);
  await expect(page.locator("#readings")).toHaveText(/^[2-9]\d*$/, { timeout: 20_000 });
  await expect(page.getByTestId("average")).toHaveText(/^\d+(\.\d)?$/);
  await expect(page.getByTestId("min")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("max")).toHaveText(/^\d+$/);
  // Stop while an answer is on its way: the late answer is dropped, so "Stopped" stays and no reading is added.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  await page.route("**/detect", async (route) => {
    holding = true;
    await held;
    await route.continue();
  });
  await expect.poll(() => holding, { timeout: 10_000 }).toBe(true);
  const readingsAtStop = await page.locator("#readings").textContent();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("status")).toHaveText("Stopped");
  const lateAnswer = page.waitForResponse((response) => response.url().endsWith("/detect"));
  release();
  await lateAnswer;
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))); // the page's handler of that answer runs
  await expect(page.getByRole("status")).toHaveText("Stopped");
  await expect(page.locator("#readings")).toHaveText(readingsAtStop!);

  expect(detectCalls.length).toBeGreaterThanOrEqual(2);
  expect(detectCalls.every((c) => c.key === "people-counter-key" && c.object === "person")).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem("peopleCounter.apiKey"))).toBe("people-counter-key");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^people-count-[\d-]+\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(csv[0]).toBe("timestamp,local_time,people");
  const readings = Number(await page.locator("#readings").textContent());
  expect(csv).toHaveLength(readings + 1);
  const current = await page.getByTestId("current").textContent();
  expect(csv.at(-1)).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[^,]+,".*",${current}$`));
});
