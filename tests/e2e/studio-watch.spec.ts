// "Watch with local vision" (issue 30) on an IP camera's card, on a desktop and on a phone (where the cards live in the
// Menu sheet): the dialog switches the server's watch on with its classes, rate and width (stored); the card says it
// waits for the server, then shows the pipeline's figures once a process writes them; switched off, the line goes.
// A refused value shows under its field. The camera is at a closed loopback port: nothing here needs its picture.
import type { Locator, Page } from "@playwright/test";
import type { PipelineStats } from "#app/schemas/watch";
import { expect, signUpInBrowser, test } from "./fixtures";
import { seedIpCamera, seedWatchStats } from "./seed";

test.describe.configure({ timeout: 90_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };
const RUNNING: PipelineStats = { state: "running", reason: null, decodeFps: 5, detectFps: 2.06, droppedFrames: 3, detectorMs: 210.4, cpuPercent: 44.6, tracks: 2 };
/** The card rereads the watches every 5 s (WATCH_REFRESH_MS): a change written on the server shows within two rounds. */
const REREAD = { timeout: 15_000 };

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    /** Where the cards are: the sidebar, or the phone's Menu sheet (opened). */
    async function cameraArea(page: Page): Promise<Locator> {
      if (device === "desktop") return page.getByRole("complementary", { name: "Camera list" });
      const menu = page.getByRole("dialog", { name: "Settings" });
      if (!(await menu.isVisible())) await page.getByRole("button", { name: "Menu" }).click();
      await expect(menu).toBeVisible();
      return menu;
    }

    async function openWatchDialog(page: Page, name: string) {
      const card = (await cameraArea(page)).getByTestId("camera-card").filter({ hasText: name });
      await card.getByRole("button", { name: "Watch with local vision" }).click();
      const dialog = page.getByRole("dialog", { name: "Watch with local vision" });
      await expect(dialog).toBeVisible();
      return { card, dialog };
    }

    test("switched on with its classes, the card waits for the server, then shows the pipeline's figures; switched off, the line goes", async ({ page }) => {
      const { username } = await signUpInBrowser(page);
      const cameraId = await seedIpCamera(username, "Hall");
      await page.reload();
      const { card, dialog } = await openWatchDialog(page, "Hall");
      await expect(card.getByTestId("camera-watch")).toHaveCount(0);

      const on = dialog.getByRole("switch", { name: "Watch with local vision" });
      await expect(on).not.toBeChecked();
      await expect(dialog.getByRole("checkbox", { name: "person", exact: true })).toBeChecked();
      await expect(dialog.getByLabel("Frames per second")).toHaveValue("5");
      await expect(dialog.getByLabel("Detection width")).toHaveValue("640");
      await expect(dialog.getByTestId("watch-cost")).toHaveText("Runs on this server: no AI calls");
      await expect(on).toBeFocused();

      await on.check();
      await dialog.getByRole("checkbox", { name: "car", exact: true }).check();
      await dialog.getByLabel("Frames per second").fill("8");
      await dialog.getByLabel("Detection width").selectOption({ label: "480 px" });
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      const line = card.getByTestId("camera-watch");
      await expect(line).toHaveText("Watching: waiting for the server…");
      const stored = await page.request.get(`/api/cameras/${cameraId}/watch`);
      expect(await stored.json()).toMatchObject({ enabled: true, labels: ["person", "car"], fps: 8, width: 480, status: "waiting" });

      // A process runs the pipeline now and writes its figures: the card's next reread shows them.
      await seedWatchStats(cameraId, RUNNING, new Date(Date.now() - 125_000));
      await expect(line).toContainText("Watching with local vision", REREAD);
      await expect(line).toContainText("5.0 fps · detector 2.1 fps, 210 ms · 3 dropped · CPU 45 %");
      await expect(line).toContainText("last event 2 min ago");
      await seedWatchStats(cameraId, { ...RUNNING, state: "stalled", reason: "unreachable" });
      await expect(line).toContainText("Watching: stalled — connection refused or no answer", REREAD);

      // The dialog opens with what is stored; switched off, the card says nothing more about it.
      await openWatchDialog(page, "Hall");
      await expect(on).toBeChecked();
      await expect(dialog.getByLabel("Frames per second")).toHaveValue("8");
      await expect(dialog.getByLabel("Detection width")).toHaveValue("480");
      await expect(dialog.getByRole("checkbox", { name: "car", exact: true })).toBeChecked();
      await on.uncheck();
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      await expect(line).toHaveCount(0);
      expect(await (await page.request.get(`/api/cameras/${cameraId}/watch`)).json()).toMatchObject({ enabled: false, status: "off" });
    });

    test.describe("refused", () => {
      // The refusals are the server's 400s, which the browser logs.
      test.use({ allowConsoleErrors: [/status of 400/] });

      test("a refused value shows under its field and nothing is stored until it is mended", async ({ page }) => {
        const { username } = await signUpInBrowser(page);
        const cameraId = await seedIpCamera(username, "Gate");
        await page.reload();
        const { card, dialog } = await openWatchDialog(page, "Gate");
        await dialog.getByRole("switch", { name: "Watch with local vision" }).check();
        const fps = dialog.getByLabel("Frames per second");
        await fps.fill("0");
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(fps).toHaveAttribute("aria-invalid", "true");
        await expect(fps).toHaveAccessibleDescription("At least 1 frame per second");

        await fps.fill("5");
        await dialog.getByRole("checkbox", { name: "person", exact: true }).uncheck();
        await expect(dialog.getByTestId("watch-classes")).toContainText("None picked: choose at least one");
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(dialog.getByTestId("watch-classes")).toHaveAccessibleDescription("Choose at least one kind of object to watch for");
        await expect(fps).not.toHaveAttribute("aria-invalid", "true");
        await expect(dialog).toBeVisible();
        expect(await (await page.request.get(`/api/cameras/${cameraId}/watch`)).json()).toMatchObject({ enabled: false, status: "off" });
        await expect(card.getByTestId("camera-watch")).toHaveCount(0);

        await dialog.getByRole("checkbox", { name: "dog", exact: true }).check();
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(dialog).toBeHidden();
        await expect(card.getByTestId("camera-watch")).toHaveText("Watching: waiting for the server…");
      });
    });
  });
}
