// PTZ in the studio: connect to the test's own fake ONVIF camera, hold the joystick and a hotkey
// (move, then stop, arrive at the camera), click-to-move, presets, and webcam controls from capabilities.
import type { Page } from "@playwright/test";
import type { FakeOnvif } from "../fakes/ptz/onvif";
import { test, waitForCommand } from "./fake-onvif";
import { addWebcam, expect, signUpInBrowser } from "./fixtures";

async function openSettings(page: Page) {
  await page.getByRole("tab", { name: "Settings" }).click();
  return page.getByTestId("ptz-panel");
}

async function connectOnvif(page: Page, onvif: FakeOnvif) {
  const panel = await openSettings(page);
  await panel.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Please enter an IP address");
  await page.keyboard.press("Escape");
  await panel.getByLabel("IP address").fill(" 127.0.0.1 ");
  await panel.getByLabel("Port (optional)").fill(String(onvif.port));
  await panel.getByRole("button", { name: "Connect" }).click();
  await expect(panel.getByTestId("ptz-connected")).toContainText("Connected to 127.0.0.1");
  await expect(panel.getByTestId("ptz-connected")).toContainText("PTZOptics PT20X-NDI");
  return panel;
}

test.beforeEach(async ({ page }) => {
  await signUpInBrowser(page);
});

test("the joystick and the arrow keys move the camera while held and stop it on release", async ({ page, onvif }) => {
  await addWebcam(page);
  const panel = await connectOnvif(page, onvif);

  let from = onvif.recorder.received.length;
  const up = panel.getByRole("button", { name: "Move up", exact: true });
  await up.hover();
  await page.mouse.down();
  from = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.y"]) > 0 && Number(c.params["PanTilt.x"]) === 0);
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await page.mouse.up();
  from = await waitForCommand(onvif, from, (c) => c.op === "Stop" && c.params.PanTilt === "true");

  await page.keyboard.down("ArrowLeft");
  from = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.x"]) < 0);
  await page.keyboard.up("ArrowLeft");
  from = await waitForCommand(onvif, from, (c) => c.op === "Stop" && c.params.PanTilt === "true");

  await page.keyboard.down("+");
  from = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["Zoom.x"]) > 0);
  await page.keyboard.up("+");
  await waitForCommand(onvif, from, (c) => c.op === "Stop" && c.params.Zoom === "true");
});

test("a click on the preview moves the camera toward it, then stops", async ({ page, onvif }) => {
  await addWebcam(page);
  await connectOnvif(page, onvif);
  const from = onvif.recorder.received.length;
  const box = (await page.getByTestId("picture-area").boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.95, box.y + box.height * 0.5);
  const after = await waitForCommand(onvif, from, (c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.x"]) > 0 && Number(c.params["PanTilt.y"]) === 0);
  await waitForCommand(onvif, after, (c) => c.op === "Stop");
});

test("saves a preset on the camera and in the list, recalls it and deletes it", async ({ page, onvif }) => {
  await addWebcam(page);
  const panel = await connectOnvif(page, onvif);
  let from = onvif.recorder.received.length;
  await panel.getByLabel("Preset name").fill("Pulpit");
  await panel.getByRole("button", { name: "Save preset" }).click();
  from = await waitForCommand(onvif, from, (c) => c.op === "SetPreset" && c.params.PresetName === "Pulpit" && c.params.PresetToken === "1");
  const presets = panel.getByTestId("ptz-presets");
  await expect(presets.getByRole("button", { name: "Recall Pulpit" })).toBeVisible();
  await presets.getByRole("button", { name: "Recall Pulpit" }).click();
  from = await waitForCommand(onvif, from, (c) => c.op === "GotoPreset" && c.params.PresetToken === "1");
  await presets.getByRole("button", { name: "Delete Pulpit" }).click();
  await waitForCommand(onvif, from, (c) => c.op === "RemovePreset" && c.params.PresetToken === "1");
  await expect(presets).toContainText("No presets saved for this camera");
});

// Chromium's fake webcam reports almost nothing; this wraps the track so it reports a known set.
const FAKE_CAPABILITIES = `
(() => {
  const caps = {
    brightness: { min: 0, max: 255, step: 1 },
    zoom: { min: 1, max: 4, step: 0.5 },
    exposureMode: ["manual", "continuous"],
    exposureTime: { min: 10, max: 1000, step: 10 },
  };
  const settings = { brightness: 128, zoom: 1, exposureMode: "continuous", exposureTime: 100 };
  const proto = MediaStreamTrack.prototype;
  const original = proto.getSettings;
  proto.getCapabilities = function () { return this.kind === "video" ? JSON.parse(JSON.stringify(caps)) : {}; };
  proto.getSettings = function () { return this.kind === "video" ? { ...original.call(this), ...settings } : original.call(this); };
  proto.applyConstraints = function (c) {
    for (const set of (c && c.advanced) || []) Object.assign(settings, set);
    window.__appliedConstraints = (window.__appliedConstraints || []).concat([c]);
    return Promise.resolve();
  };
})();
`;

test("webcam controls show only what the device reports, clamped to its range", async ({ page }) => {
  await page.addInitScript(FAKE_CAPABILITIES);
  await page.reload();
  await addWebcam(page);
  const panel = await openSettings(page);
  await panel.getByRole("radio", { name: "USB" }).click();
  const controls = panel.getByTestId("webcam-controls");
  await expect(controls.getByRole("slider", { name: "Brightness" })).toHaveAttribute("max", "255");
  await expect(controls.getByRole("slider", { name: "Zoom" })).toHaveAttribute("step", "0.5");
  await expect(controls.getByRole("slider")).toHaveCount(2);
  await expect(controls.getByRole("slider", { name: "Contrast" })).toHaveCount(0);
  await expect(controls.getByRole("slider", { name: "Shutter (exposure time)" })).toHaveCount(0);
  await controls.getByLabel("Exposure mode").selectOption("manual");
  await expect(controls.getByRole("slider", { name: "Shutter (exposure time)" })).toHaveAttribute("min", "10");
  await controls.getByRole("slider", { name: "Brightness" }).fill("300");
  await expect
    .poll(() => page.evaluate(() => JSON.stringify((window as unknown as { __appliedConstraints?: unknown[] }).__appliedConstraints ?? [])))
    .toContain('"brightness":255');

  // USB PTZ: the joystick's zoom drives the webcam's own zoom.
  await panel.getByRole("button", { name: "Zoom in" }).hover();
  await page.mouse.down();
  await expect.poll(() => page.evaluate(() => JSON.stringify((window as unknown as { __appliedConstraints?: unknown[] }).__appliedConstraints ?? []))).toContain('"zoom":1.5');
  await page.mouse.up();
});
