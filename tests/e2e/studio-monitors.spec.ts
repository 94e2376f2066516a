// The Automate tab's monitors against the real server: only IP cameras are offered, a refused interval is
// explained under its field, and a started monitor is listed with its state and can be paused, resumed and
// deleted. (Ticks with frames from a camera are covered by tests/integration/monitors-run.test.ts.)
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";
import { seedIpCamera } from "./seed";

// The refused interval is a 400 the browser logs as a failed resource; the page itself handles it.
test.use({ allowConsoleErrors: [/status of 400/] });

test("Automate tab: start a monitor on an IP camera, see its state, pause, resume and delete it", async ({ page }) => {
  const { username } = await signUpInBrowser(page);
  await seedIpCamera(username, "Rack cam 1");
  await page.reload();
  await page.getByRole("tab", { name: "Automate" }).click();
  const section = page.getByRole("region", { name: "Monitors" });
  await expect(section.getByText("No monitors yet")).toBeVisible();

  const form = page.getByRole("form", { name: "New monitor" });
  await expect(form.getByLabel("IP camera").locator("option")).toHaveText(["Rack cam 1"]);
  await form.getByLabel("Detect").fill("person");
  const interval = form.getByLabel("Interval (seconds)");
  await interval.fill("1");
  await form.getByRole("button", { name: "Start monitor" }).click();
  await expect(interval).toHaveAccessibleDescription("Interval must be at least 2 s");
  await expect(interval).toHaveAttribute("aria-invalid", "true");

  await interval.fill("3600");
  await form.getByRole("button", { name: "Start monitor" }).click();
  await expect(toastWith(page, "Monitor started")).toBeVisible();
  const monitor = section.getByRole("listitem", { name: "Auto-capture: person on Rack cam 1" });
  await expect(monitor).toContainText("Rack cam 1 · Auto-capture · person, every 3600 s");
  await expect(monitor).toContainText(/Running|Error/);

  await monitor.getByRole("button", { name: /^Pause / }).click();
  await expect(monitor).toContainText("Paused");
  await monitor.getByRole("button", { name: /^Resume / }).click();
  await expect(monitor.getByRole("button", { name: /^Pause / })).toBeVisible();
  await monitor.getByRole("button", { name: /^Delete / }).click();
  await expect(section.getByText("No monitors yet")).toBeVisible();
});
