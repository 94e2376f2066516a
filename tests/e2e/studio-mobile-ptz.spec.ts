// The PTZ sheet on a phone: reached from the bottom bar, the same panel as the desktop's Settings tab; a
// touch held on the joystick moves the fake ONVIF camera and lifting the finger stops it; presets recall.
import type { Locator, Page } from "@playwright/test";
import { test, waitForCommand } from "./fake-onvif";
import { expect, signUpInBrowser } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** A real touch (touchstart now, touchend when the returned function is called) on the middle of a control. */
async function touchHold(page: Page, target: Locator): Promise<() => Promise<void>> {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  return async () => {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await cdp.detach();
  };
}

test("the PTZ sheet connects, moves the camera while a finger is held, stops on release and recalls a preset", async ({ page, onvif }) => {
  await signUpInBrowser(page);
  // A saved webcam without a device id opens this phone's default camera; presets are kept per camera.
  const created = await page.request.post("/api/cameras", { data: { name: "Stage", model: "", status: "online" }, headers: { origin: new URL(page.url()).origin } });
  expect(created.ok()).toBe(true);
  await page.reload();
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);

  const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
  await nav.getByRole("button", { name: "PTZ" }).tap();
  const sheet = page.getByRole("dialog", { name: "PTZ" });
  await expect(sheet).toBeVisible();
  await expect(nav.getByRole("button", { name: "PTZ" })).toHaveAttribute("aria-pressed", "true");
  const panel = sheet.getByTestId("ptz-panel");
  await panel.getByLabel("IP address").fill("127.0.0.1");
  await panel.getByLabel("Port (optional)").fill(String(onvif.port));
  await panel.getByRole("button", { name: "Connect" }).tap();
  await expect(panel.getByTestId("ptz-connected")).toContainText("Connected to 127.0.0.1");
  await expect(panel.getByRole("button", { name: "Home" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Zoom in" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Focus far" })).toBeVisible();
  for (const speed of ["Pan/tilt speed", "Zoom speed", "Focus speed"]) await expect(panel.getByRole("slider", { name: speed })).toBeVisible();

  let from = onvif.recorder.received.length;
  const up = panel.getByRole("button", { name: "Move up", exact: true });
  const lift = await touchHold(page, up);
  from = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.y"]) > 0 && Number(c.params["PanTilt.x"]) === 0);
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await lift();
  from = await waitForCommand(onvif, from, (c) => c.op === "Stop" && c.params.PanTilt === "true");
  await expect(up).toHaveAttribute("aria-pressed", "false");

  const zoomLift = await touchHold(page, panel.getByRole("button", { name: "Zoom in" }));
  from = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["Zoom.x"]) > 0);
  await zoomLift();
  from = await waitForCommand(onvif, from, (c) => c.op === "Stop" && c.params.Zoom === "true");

  await panel.getByLabel("Preset name").fill("Pulpit");
  await panel.getByRole("button", { name: "Save preset" }).tap();
  from = await waitForCommand(onvif, from, (c) => c.op === "SetPreset" && c.params.PresetName === "Pulpit");
  await panel.getByRole("button", { name: "Recall Pulpit" }).tap();
  await waitForCommand(onvif, from, (c) => c.op === "GotoPreset");
});
