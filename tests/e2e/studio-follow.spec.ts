// Follow (PTZ auto-tracking) in Chromium: the switch says why it cannot run until a PTZ camera is connected and
// box detection is on; then each detection of the fake webcam's blue left half (the fake Moondream's box) drives
// the test's fake ONVIF camera left through POST /api/ptz/drive, and switching Follow off stops it.
import type { Page } from "@playwright/test";
import type { FakeOnvif } from "../fakes/ptz/onvif";
import { test, waitForCommand } from "./fake-onvif";
import { addWebcam, expect, signUpInBrowser, toastWith } from "./fixtures";

async function connectOnvif(page: Page, onvif: FakeOnvif) {
  await page.getByRole("tab", { name: "Settings" }).click();
  const panel = page.getByTestId("ptz-panel");
  await panel.getByLabel("IP address").fill("127.0.0.1");
  await panel.getByLabel("Port (optional)").fill(String(onvif.port));
  await panel.getByRole("button", { name: "Connect" }).click();
  await expect(panel.getByTestId("ptz-connected")).toContainText("Connected to 127.0.0.1");
}

test("Follow drives the PTZ camera toward the detected subject and stops when switched off", async ({ page, onvif }) => {
  await signUpInBrowser(page);
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  const section = page.getByTestId("follow");
  const follow = section.getByRole("switch", { name: "Follow" });
  await expect(follow).toBeDisabled();
  await expect(section).toContainText("Follow needs a PTZ camera");

  await connectOnvif(page, onvif);
  await page.getByRole("tab", { name: "Detections" }).click();
  await expect(follow).toBeDisabled();
  await expect(section).toContainText("Follow needs Box Detection");

  const box = page.getByTestId("box-detection");
  await box.getByRole("button", { name: "Edit" }).click();
  await box.getByLabel("What to detect").fill("blue");
  await box.getByRole("button", { name: "Apply" }).click();
  await expect(toastWith(page, "Detection Updated")).toBeVisible();
  // The loop's next round is a minute away, and the first result is in before Follow is on: Follow must not
  // wait for that round (nor act on the old result) but ask for a fresh one at once.
  await box.getByLabel("Detection interval").selectOption("60000");
  await page.getByRole("switch", { name: "Enable Box Detection" }).click();
  await expect(box.getByTestId("box-count")).toHaveText("1 found");
  const from = onvif.recorder.received.length;
  await expect(follow).toBeEnabled();
  await follow.click();
  await expect(follow).toHaveAttribute("aria-checked", "true");

  // The blue half's box is centred at (0.25, 0.5): pan left, tilt still.
  const driven = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.x"]) < 0 && Number(c.params["PanTilt.y"]) === 0);
  await expect(section.getByTestId("follow-phase")).toHaveText("Following");
  // The switch's own stop (the server's watchdog would also stop the camera 2 s after the last drive).
  const stopSent = page.waitForResponse((r) => r.url().endsWith("/api/ptz/stop") && r.ok());
  await follow.click();
  await stopSent;
  await waitForCommand(onvif, driven, (c) => c.op === "Stop" && c.params.PanTilt === "true");
  await expect(follow).toHaveAttribute("aria-checked", "false");
});
