// Issue 27's rough edges with IP cameras, on a desktop and on a phone (where the dialog and the cards live in the
// Menu sheet): a stream URL pasted into Host switches to Stream URL; the add answers while PTZ discovery still waits
// on a silent port, the card saying "Checking PTZ…" until PTZ is found and the controls bind; two cameras on one
// host:port show their paths; a camera nobody watches says idle, a failing one says unreachable with the reason.
import type { Locator, Page } from "@playwright/test";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { expect, signUpInBrowser, test as base } from "./fixtures";
import { seedIpCamera } from "./seed";

const PASSWORD = "stage-secret";

const test = base.extend<{ ipCamera: FakeIpCamera }>({
  ipCamera: async ({ page: _page }, provide) => {
    const camera = await startFakeIpCamera({ username: "admin", password: PASSWORD });
    await provide(camera);
    await camera.close();
  },
});

test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    /** Where the cards and Add Camera are: the sidebar, or the phone's Menu sheet (opened). */
    async function cameraArea(page: Page): Promise<Locator> {
      if (device === "desktop") return page.getByRole("complementary", { name: "Camera list" });
      const menu = page.getByRole("dialog", { name: "Settings" });
      if (!(await menu.isVisible())) await page.getByRole("button", { name: "Menu" }).click();
      await expect(menu).toBeVisible();
      return menu;
    }

    async function openAddDialog(page: Page) {
      const area = device === "desktop" ? page : await cameraArea(page);
      await area.getByRole("button", { name: "Add Camera" }).first().click();
      await page.getByRole("menuitem", { name: "Add IP Camera" }).click();
      return page.getByRole("dialog", { name: "Add IP Camera" });
    }

    const card = (area: Locator, name: string) => area.getByTestId("camera-card").filter({ hasText: name });

    test("a stream URL pasted into Host switches to Stream URL and is added as it is, its path on the card", async ({ page, ipCamera }) => {
      await signUpInBrowser(page);
      const dialog = await openAddDialog(page);
      await dialog.getByLabel("Name", { exact: true }).fill("Pasted");
      const url = ipCamera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${PASSWORD}@`);
      await dialog.getByRole("textbox", { name: "Host" }).fill(url);
      await expect(dialog.getByRole("radio", { name: "Stream URL" })).toBeChecked();
      await expect(dialog.getByTestId("moved-to-url")).toHaveText("That is a stream URL: switched to Stream URL.");
      await expect(dialog.getByRole("textbox", { name: "Stream URL" })).toHaveValue(url);
      await expect(dialog.getByRole("textbox", { name: "Stream URL" })).toBeFocused();
      await dialog.getByRole("button", { name: "Add" }).click();
      await expect(dialog).toBeHidden({ timeout: 15_000 });
      const added = card(await cameraArea(page), "Pasted");
      await expect(added.getByTestId("camera-host")).toHaveText(`127.0.0.1:${ipCamera.ports.rtsp}`);
      await expect(added.getByTestId("camera-path")).toHaveText("· /2");
      await expect(added).not.toContainText(PASSWORD);
    });

    test("the add answers while PTZ discovery waits: “Checking PTZ…” on the card, then the PTZ controls", async ({ page, ipCamera }) => {
      await signUpInBrowser(page);
      const onvif = ipCamera.onvif()!;
      // ONVIF answers at once; the HTTP-CGI probe on the same port is held open with no answer.
      onvif.holdGets = true;
      try {
        const dialog = await openAddDialog(page);
        await dialog.getByLabel("Name", { exact: true }).fill("Stage");
        await dialog.getByRole("textbox", { name: "Host" }).fill(`127.0.0.1:${ipCamera.ports.onvif}`);
        await dialog.getByLabel("Password").fill(PASSWORD);
        await dialog.getByRole("button", { name: "Add" }).click();
        await expect(dialog).toBeHidden({ timeout: 15_000 });
        const added = card(await cameraArea(page), "Stage");
        await expect(added.getByTestId("camera-ptz")).toHaveText("Checking PTZ…");
        await expect.poll(() => onvif.held(), { timeout: 10_000 }).toBeGreaterThan(0);
        await expect(added.getByTestId("camera-ptz")).toHaveText("Checking PTZ…");
        onvif.release();
        await expect(added.getByTestId("camera-ptz")).toHaveText("PTZ: ONVIF", { timeout: 20_000 });
      } finally {
        onvif.release();
      }
      if (device === "desktop") {
        await page.getByRole("tab", { name: "Settings" }).click();
        await expect(page.getByTestId("ptz-panel").getByTestId("ptz-connected")).toContainText(`Controlling Stage (127.0.0.1:${ipCamera.ports.onvif})`);
      } else {
        await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).click();
        await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "PTZ" }).click();
        await expect(page.getByRole("dialog", { name: "PTZ" }).getByTestId("ptz-connected")).toContainText(`Controlling Stage (127.0.0.1:${ipCamera.ports.onvif})`);
      }
    });

    test("cameras on one host:port show their paths; the one watched fails with its reason, the other is idle", async ({ page }) => {
      const { username } = await signUpInBrowser(page);
      // Both at a closed loopback port: the first is selected on load (so watched, and failing), the second never is.
      await seedIpCamera(username, "Door", { streamUrl: "rtsp://127.0.0.1:9/1" });
      await seedIpCamera(username, "Yard", { streamUrl: "rtsp://127.0.0.1:9/2" });
      await page.reload();
      const area = await cameraArea(page);
      await expect(card(area, "Door")).toHaveAttribute("data-selected", "true");
      for (const [name, path] of [
        ["Door", "· /1"],
        ["Yard", "· /2"],
      ] as const) {
        await expect(card(area, name).getByTestId("camera-host")).toHaveText("127.0.0.1:9");
        await expect(card(area, name).getByTestId("camera-path")).toHaveText(path);
      }
      await expect(card(area, "Door").getByTestId("camera-status")).toHaveText("Unreachable: connection refused or no answer", { timeout: 30_000 });
      await expect(card(area, "Yard").getByTestId("camera-status")).toHaveText("Idle (not streaming now)");
    });
  });
}
