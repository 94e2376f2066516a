// Follow (PTZ auto-tracking) in Chromium: the switch says why it cannot run until a PTZ camera is connected and
// box detection is on; then each detection of the fake webcam's blue left half (the fake Moondream's box) drives
// the fake ONVIF camera left through POST /api/ptz/drive, and switching Follow off stops it.
import type { Page } from "@playwright/test";
import { onvifUrl, received, waitForCommand } from "./fake-onvif";
import { addWebcam, expect, signUpInBrowser, test, toastWith } from "./fixtures";

async function connectOnvif(page: Page) {
  await page.getByRole("tab", { name: "Settings" }).click();
  const panel = page.getByTestId("ptz-panel");
  await panel.getByLabel("IP address").fill("127.0.0.1");
  await panel.getByLabel("Port (optional)").fill(new URL(onvifUrl()).port);
  await panel.getByRole("button", { name: "Connect" }).click();
  await expect(panel.getByTestId("ptz-connected")).toContainText("Connected to 127.0.0.1");
}

test("Follow drives the PTZ camera toward the detected subject and stops when switched off", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  const section = page.getByTestId("follow");
  const follow = section.getByRole("switch", { name: "Follow" });
  await expect(follow).toBeDisabled();
  await expect(section).toContainText("Follow needs a PTZ camera");

  await connectOnvif(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  await expect(follow).toBeDisabled();
  await expect(section).toContainText("Follow needs Box Detection");

  const box = page.getByTestId("box-detection");
  await box.getByRole("button", { name: "Edit" }).click();
  await box.getByLabel("What to detect").fill("blue");
  await box.getByRole("button", { name: "Apply" }).click();
  await expect(toastWith(page, "Detection Updated")).toBeVisible();
  const from = (await received()).length;
  await page.getByRole("switch", { name: "Enable Box Detection" }).click();
  await expect(follow).toBeEnabled();
  await follow.click();
  await expect(follow).toHaveAttribute("aria-checked", "true");

  // The blue half's box is centred at (0.25, 0.5): pan left, tilt still.
  const driven = await waitForCommand(from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.x"]) < 0 && Number(c.params["PanTilt.y"]) === 0);
  await expect(section.getByTestId("follow-phase")).toHaveText("Following");
  await follow.click();
  await waitForCommand(driven, (c) => c.op === "Stop" && c.params.PanTilt === "true");
  await expect(follow).toHaveAttribute("aria-checked", "false");
});
