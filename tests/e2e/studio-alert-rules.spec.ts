// Alert rules on local-vision events in the Automate tab, against a second app server of the same deployment
// with e-mail set up (SMTP on a closed loopback port: no rule here fires, so nothing is sent; delivery through a
// fake SMTP server is tests/integration/alerts.test.ts). A rule is made by picking camera, line and class, is
// stored and listed in words; a line deleted meanwhile is refused under the line picker.
import path from "node:path";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { jpegDataUrl } from "../support/images";
import { expect, signUpInBrowser, test } from "./fixtures";

// The refused rule is a 400 the browser logs as a failed resource; the page itself handles it.
test.use({ allowConsoleErrors: [/status of 400/] });

let second: TestApp;

test.beforeAll(async () => {
  second = await startApp({
    DATABASE_URL: process.env.E2E_DATABASE_URL,
    DATA_DIR: tempDir("e2e-alerts"),
    // One deployment shares its images: the studio already open on the first server shows the camera made here.
    BLOB_DIR: path.join(process.env.E2E_DATA_DIR!, "blobs"),
    PORT: String(await freePort()),
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(await freePort()),
    SMTP_FROM: "alerts@framewise.test",
    SMTP_SECURE: "false",
  });
});
test.afterAll(async () => {
  await second?.stop();
});

test("Automate tab: an alert rule for a line crossing is made by picking camera, line and class, stored and listed", async ({ page }) => {
  await signUpInBrowser(page);
  // Same host, so the session cookie goes to the second server too.
  const api = async (method: "post" | "delete", path: string, data?: unknown) => {
    const response = await page.request[method](`${second.url}${path}`, { data, headers: { origin: second.url } });
    expect(response.ok()).toBe(true);
    return response.status() === 204 ? null : response.json();
  };
  const camera = await api("post", "/api/cameras", { name: "Shop", thumbnail: await jpegDataUrl(64, 48) });
  const line = (name: string) => api("post", `/api/cameras/${camera.id}/lines`, { name, a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } });
  const door = await line("Front door");
  const till = await line("Till");

  await page.goto(`${second.url}/studio`);
  await page.getByRole("tab", { name: "Automate" }).click();
  await expect(page.getByText("No alert rules yet")).toBeVisible();
  await page.getByLabel("When").selectOption({ label: "a line is crossed" });
  const linePicker = page.getByLabel("Line", { exact: true });
  await expect(linePicker).toBeDisabled(); // any camera: any line
  await page.getByLabel("on", { exact: true }).selectOption({ label: "Shop" });
  await expect(linePicker.getByRole("option")).toHaveText(["Any line", "Front door", "Till"]);
  await linePicker.selectOption({ label: "Front door" });
  await page.getByLabel("Class").fill("person");
  await page.getByRole("button", { name: "Add rule" }).click();

  const rules = page.getByRole("list", { name: "Alert rules" });
  const wording = 'When a person crosses "Front door" on Shop → e-mail, at most every 5 min';
  await expect(rules.getByRole("listitem")).toHaveText([`${wording}Delete`]);
  const stored = await (await page.request.get(`${second.url}/api/alerts/rules`)).json();
  expect(stored).toEqual([expect.objectContaining({ kind: "line_crossed", object: "person", targetId: door.id, email: true, sms: false, cooldownMinutes: 5 })]);

  // A line deleted after the picker listed it: the server's reason shows under the picker, and nothing is added.
  await linePicker.selectOption({ label: "Till" });
  await api("delete", `/api/lines/${till.id}`);
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(linePicker).toHaveAccessibleDescription("Choose one of your lines");
  await expect(linePicker).toHaveAttribute("aria-invalid", "true");
  await expect(rules.getByRole("listitem")).toHaveCount(1);

  await page.reload();
  await page.getByRole("tab", { name: "Automate" }).click();
  await expect(page.getByRole("list", { name: "Alert rules" }).getByRole("listitem")).toHaveText([`${wording}Delete`]);
});
