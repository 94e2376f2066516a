// Monitors on local vision (issue 30) in the Automate tab, on desktop and phone: the form offers "Capture on local
// vision" with its class, trigger, line and description, says what each choice costs in AI calls an hour, explains that
// the camera must be watched with local vision first, and lists the monitor once started. (Its photos on real
// footage: tests/integration/local-monitors.test.ts.)
import type { Locator, Page } from "@playwright/test";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";
import { seedIpCamera } from "./seed";

// The unwatched camera is a 422 the browser logs as a failed resource; the form shows it under the camera.
test.use({ allowConsoleErrors: [/status of 422/] });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    async function automate(page: Page): Promise<Locator> {
      if (device === "desktop") {
        await page.getByRole("tab", { name: "Automate" }).click();
        return page.locator("body");
      }
      await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).tap();
      const sheet = page.getByRole("dialog", { name: "AI" });
      await sheet.getByRole("tab", { name: "Automate" }).tap();
      return sheet;
    }

    test("starts a capture on local vision: its trigger fields, its cost changing with the choices, the watch it needs, then listed", async ({ page }) => {
      const { username } = await signUpInBrowser(page);
      const cameraId = await seedIpCamera(username, "Door cam");
      const headers = { origin: new URL(page.url()).origin };
      const line = await page.request.post(`/api/cameras/${cameraId}/lines`, {
        data: { name: "Way out", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] },
        headers,
      });
      expect(line.status()).toBe(201);
      await page.reload();
      const tab = await automate(page);
      const form = tab.getByRole("form", { name: "New monitor" });
      const cost = form.getByTestId("monitor-cost");
      await expect(cost).toHaveText("About 720 AI calls an hour: your 100 free calls last about 8 minutes");

      await form.getByLabel("Kind").selectOption({ label: "Capture on local vision" });
      await expect(form.getByLabel("Interval (seconds)")).toHaveCount(0);
      await expect(form.getByLabel("Class")).toHaveValue("person");
      await expect(form.getByLabel("Minimum gap between photos (seconds)")).toHaveValue("60");
      await expect(cost).toHaveText("No AI calls: runs on this server");

      // The camera is not watched: the server says to switch its local vision on, under the camera.
      await form.getByRole("button", { name: "Start monitor" }).click();
      await expect(form.getByLabel("IP camera")).toHaveAccessibleDescription(/Switch on “Watch with local vision” for this camera first/);
      const watched = await page.request.put(`/api/cameras/${cameraId}/watch`, { data: { enabled: true, labels: ["person"], fps: 5, width: 640 }, headers });
      expect(watched.status()).toBe(200);

      await form.getByLabel("Capture when it").selectOption({ label: "Crosses a line" });
      await expect(form.getByLabel("Line")).toHaveValue(((await line.json()) as { id: string }).id);
      await expect(form.getByLabel("Line").locator("option")).toHaveText(["Way out"]);
      await form.getByLabel("Describe with Moondream (optional)").fill("What is the person wearing?");
      await expect(cost).toHaveText("At most 60 AI calls an hour (one description per photo, at most one photo every 60 s): your 100 free calls last at least 100 minutes");
      await form.getByLabel("Minimum gap between photos (seconds)").fill("300");
      await expect(cost).toHaveText("At most 12 AI calls an hour (one description per photo, at most one photo every 5 min): your 100 free calls last at least 8 hours");

      await form.getByRole("button", { name: "Start monitor" }).click();
      await expect(toastWith(page, "Monitor started")).toBeVisible();
      const monitor = tab.getByRole("listitem", { name: "Capture on local vision: person crosses Way out on Door cam" });
      await expect(monitor).toContainText("Door cam · Capture on local vision · person crosses a line, at most one photo per 300 s, described");
      await expect(monitor).toContainText("Running");
    });
  });
}
