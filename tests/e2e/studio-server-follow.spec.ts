// Follow on an IP camera the server watches (issue 30), on a desktop and on a phone: the switch needs no box detection
// in the studio, switching it on sets the server's follow (stored with the watch), the section says the server follows,
// and a manual PTZ command on the camera (here straight through the API, as another studio's joystick) pauses it: the
// switch shows it off at the watch's next reread. The camera is at a closed loopback port: nothing here moves a camera.
import { expect, signUpInBrowser, test } from "./fixtures";
import { closedCameraRow } from "../support/ip-cameras";
import { seedIpCamera } from "./seed";

test.describe.configure({ timeout: 90_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };
/** The studio rereads the watches every 5 s: a pause written on the server shows within two rounds. */
const REREAD = { timeout: 15_000 };

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);
    test("switching Follow on has the server follow the watched camera; a manual move pauses it", async ({ page }) => {
      const { username } = await signUpInBrowser(page);
      const cameraId = await seedIpCamera(username, "Stage", { ...closedCameraRow(), ptzProtocol: "onvif" });
      const watched = await page.request.put(`/api/cameras/${cameraId}/watch`, { data: { enabled: true, labels: ["person"], fps: 5, width: 640 } });
      expect(watched.status()).toBe(200);
      await page.reload();
      // On a phone the AI panel is a sheet opened from the bottom bar, with the same tabs.
      if (device === "phone") await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).click();
      await page.getByRole("tab", { name: "Detections" }).click();
      const section = page.getByTestId("follow");
      const follow = section.getByRole("switch", { name: "Follow" });
      // The server detects: no box detection is needed here.
      await expect(follow).toBeEnabled();
      await follow.click();
      await expect(follow).toHaveAttribute("aria-checked", "true");
      await expect(section.getByTestId("follow-phase")).toHaveText("Followed by the server, from its own detection (it goes on with the studio closed)");
      await expect.poll(async () => ((await (await page.request.get(`/api/cameras/${cameraId}/watch`)).json()) as { follow: { enabled: boolean } }).follow.enabled).toBe(true);

      await page.request.post("/api/ptz/drive", { data: { connection: { cameraId }, pan: 3, tilt: 0 } });
      await expect(follow).toHaveAttribute("aria-checked", "false", REREAD);
      const paused = (await (await page.request.get(`/api/cameras/${cameraId}/watch`)).json()) as { follow: { enabled: boolean; pausedAt: string | null } };
      expect(paused.follow.pausedAt).not.toBeNull();

      // On again from the studio: no longer paused.
      await follow.click();
      await expect(follow).toHaveAttribute("aria-checked", "true");
      await expect
        .poll(async () => ((await (await page.request.get(`/api/cameras/${cameraId}/watch`)).json()) as { follow: { pausedAt: string | null } }).follow.pausedAt)
        .toBeNull();
    });
  });
}
