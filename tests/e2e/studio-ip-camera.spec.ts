// An IP camera in the studio, end to end in Chromium: the fake IP camera (tests/fakes/ip-camera, a real RTSP
// server with Digest auth and ONVIF, run in this test process) added by host + credentials, its live view
// playing through MSE (pixels change), a capture at the main stream's 1280×720, box detection on the live
// view, a wrong password, the camera going away and coming back, and two tabs sharing one pull.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { fakeCameraRow } from "../support/ip-cameras";
import { expect, saveOwnKey, signUpInBrowser, test as base, toastWith } from "./fixtures";
import { seedIpCamera } from "./seed";

const PASSWORD = "stage-secret";

const test = base.extend<{ ipCamera: FakeIpCamera }>({
  // One fake camera per test: its session counts and stop/start are that test's alone.
  ipCamera: async ({ page: _page }, provide) => {
    const camera = await startFakeIpCamera({ username: "admin", password: PASSWORD });
    await provide(camera);
    await camera.close();
  },
});

// ffmpeg start-up, the first keyframe and reconnect backoff take seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/** What the Host field takes for the fake: its address with the ONVIF port, from which the stream is found. */
const hostOf = (camera: FakeIpCamera) => `127.0.0.1:${camera.ports.onvif}`;

async function addIpCamera(page: Page, camera: FakeIpCamera, password = PASSWORD, name = "Stage") {
  await page.getByRole("button", { name: "Add Camera" }).first().click();
  await page.getByRole("menuitem", { name: "Add IP Camera" }).click();
  const dialog = page.getByRole("dialog", { name: "Add IP Camera" });
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByRole("radio", { name: "Host" }).check();
  await dialog.getByRole("textbox", { name: "Host" }).fill(hostOf(camera));
  await expect(dialog.getByLabel("Username")).toHaveAttribute("placeholder", /admin/);
  await dialog.getByLabel("Username").fill("admin");
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Add" }).click();
  return dialog;
}

const card = (page: Page, name = "Stage") => page.getByTestId("camera-card").filter({ hasText: name });

/** A cheap signature of the preview's current picture, read from a canvas the video is drawn into. */
function pictureSignature(page: Page): Promise<string | null> {
  return page.getByTestId("preview-video").evaluate((video: HTMLVideoElement) => {
    if (!video.videoWidth || video.readyState < 2) return null;
    const canvas = document.createElement("canvas");
    canvas.width = 160;
    canvas.height = 90;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0;
    for (let i = 0; i < data.length; i += 4) hash = (Math.imul(hash, 31) + data[i]! + data[i + 1]! * 3 + data[i + 2]! * 7) | 0;
    return `${video.videoWidth}x${video.videoHeight}:${hash}`;
  });
}

/** Waits until the preview plays the live view and its picture changes between two samples. */
async function expectMovingPicture(page: Page) {
  let first: string | null = null;
  await expect.poll(async () => (first = await pictureSignature(page)), { timeout: 30_000 }).not.toBeNull();
  await expect.poll(() => pictureSignature(page), { timeout: 15_000 }).not.toBe(first);
}

/** This test's user (signed up in its page before each test). */
let username: string;

test.beforeEach(async ({ page }) => {
  ({ username } = await signUpInBrowser(page));
});

test("an IP camera added by host and credentials plays live, captures at the main stream's 1280×720 and runs box detection", async ({ page, ipCamera }) => {
  const dialog = await addIpCamera(page, ipCamera);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  // The card shows the host only: never a URL, never the password.
  await expect(card(page).getByTestId("camera-host")).toHaveText(hostOf(ipCamera));
  await expect(card(page)).not.toContainText(PASSWORD);
  await expect(card(page)).not.toContainText("rtsp://");
  await expect(card(page).getByTestId("status-dot")).toHaveAttribute("data-online", "true", { timeout: 30_000 });
  await expectMovingPicture(page);
  // The player keeps the picture at the live edge: within a second of the newest buffered frame.
  const lag = () => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => (v.buffered.length ? v.buffered.end(v.buffered.length - 1) - v.currentTime : Infinity));
  await expect.poll(lag, { timeout: 10_000 }).toBeLessThan(1);

  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(1, { timeout: 15_000 });
  const photos = (await (await page.request.get("/api/photos")).json()) as { imageUrl: string; videoWidth: number; videoHeight: number }[];
  expect(photos).toHaveLength(1);
  expect([photos[0]!.videoWidth, photos[0]!.videoHeight]).toEqual([1280, 720]);
  const image = await sharp(await (await page.request.get(photos[0]!.imageUrl)).body()).metadata();
  expect([image.width, image.height]).toEqual([1280, 720]);

  // Box detection on the live view: the fake Moondream finds testsrc2's green bar.
  await saveOwnKey(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  const section = page.getByTestId("box-detection");
  await section.getByRole("button", { name: "Edit" }).click();
  await section.getByLabel("What to detect").fill("green");
  await section.getByRole("button", { name: "Apply" }).click();
  await expect(toastWith(page, "Detection Updated")).toBeVisible();
  await page.getByRole("switch", { name: "Enable Box Detection" }).click();
  const canvas = page.getByTestId("detection-canvas");
  await expect.poll(async () => Number(await canvas.getAttribute("data-count")), { timeout: 45_000 }).toBeGreaterThan(0);
  const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
  expect(painted).toBeGreaterThan(100);
});

test.describe("refused", () => {
  // The browser logs the 422 answer itself.
  test.use({ allowConsoleErrors: [/status of 422/] });

  test("a wrong password is refused with “authentication failed” under the password", async ({ page, ipCamera }) => {
    const dialog = await addIpCamera(page, ipCamera, "not-the-password");
    await expect(dialog.getByText("authentication failed")).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("camera-card")).toHaveCount(0);
  });

  test("a refused address or URL is explained under its own field", async ({ page }) => {
    await page.getByRole("button", { name: "Add Camera" }).first().click();
    await page.getByRole("menuitem", { name: "Add IP Camera" }).click();
    const dialog = page.getByRole("dialog", { name: "Add IP Camera" });
    await dialog.getByLabel("Name", { exact: true }).fill("Nope");
    // Port 9 is no camera port: refused by the address policy before any connection.
    await dialog.getByRole("textbox", { name: "Host" }).fill("127.0.0.1:9");
    await dialog.getByRole("button", { name: "Add" }).click();
    await expect(dialog.getByRole("textbox", { name: "Host" })).toHaveAttribute("aria-invalid", "true", { timeout: 15_000 });
    await dialog.getByRole("radio", { name: "Stream URL" }).check();
    await dialog.getByRole("textbox", { name: "Stream URL" }).fill("file:///etc/passwd");
    await dialog.getByRole("button", { name: "Add" }).click();
    await expect(dialog.getByRole("textbox", { name: "Stream URL" })).toHaveAttribute("aria-invalid", "true", { timeout: 15_000 });
    await expect(page.getByTestId("camera-card")).toHaveCount(0);
  });

  test("Edit connection re-probes the camera: a wrong password is refused, the right one saved", async ({ page, ipCamera }) => {
    await addIpCamera(page, ipCamera);
    await expect(card(page).getByTestId("status-dot")).toHaveAttribute("data-online", "true", { timeout: 30_000 });
    await card(page).getByRole("button", { name: "Edit connection" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit connection" });
    await expect(dialog.getByRole("textbox", { name: "Host" })).toHaveValue(hostOf(ipCamera));
    await dialog.getByLabel("Password").fill("wrong-again");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("authentication failed")).toBeVisible({ timeout: 15_000 });
    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(card(page).getByTestId("status-dot")).toHaveAttribute("data-online", "true", { timeout: 30_000 });
    await expectMovingPicture(page);
  });
});

test("a camera whose stored password no longer works says “401 wrong user name or password” on its card", async ({ page, ipCamera }) => {
  await seedIpCamera(username, "Spare"); // listed first, so selected on load
  // As if the camera's password was changed on the camera after it was added.
  await seedIpCamera(username, "Locked", fakeCameraRow(ipCamera, { password: "changed-since" }));
  await page.reload();
  await expect(card(page, "Spare")).toHaveAttribute("data-selected", "true");
  // A click in the middle of the card (over its name and status) selects it, as anywhere but its own controls.
  await card(page, "Locked").click();
  await expect(card(page, "Locked")).toHaveAttribute("data-selected", "true");
  await expect(card(page, "Locked").getByTestId("camera-status")).toHaveText("Unreachable: 401 wrong user name or password", { timeout: 30_000 });
  await expect(card(page, "Locked").getByTestId("status-dot")).toHaveAttribute("data-online", "false");
  // It keeps saying so once another camera is shown.
  await card(page, "Spare").click();
  await expect(card(page, "Spare")).toHaveAttribute("data-selected", "true");
  await expect(card(page, "Locked").getByTestId("camera-status")).toHaveText("Unreachable: 401 wrong user name or password");
});

test("a camera that goes away shows offline with its reason, then online again when it returns", async ({ page, ipCamera }) => {
  await addIpCamera(page, ipCamera);
  const status = card(page).getByTestId("status-dot");
  await expect(status).toHaveAttribute("data-online", "true", { timeout: 30_000 });
  await expectMovingPicture(page);

  await ipCamera.stop();
  await expect(status).toHaveAttribute("data-online", "false", { timeout: 30_000 });
  await expect(card(page).getByTestId("camera-status")).toContainText(/Unreachable: (connection refused or no answer|no video stream)/, { timeout: 30_000 });

  await ipCamera.start();
  await expect(status).toHaveAttribute("data-online", "true", { timeout: 60_000 });
  await expectMovingPicture(page);
});

test("two tabs watching one camera share one pull from it", async ({ page, context, ipCamera }) => {
  await addIpCamera(page, ipCamera);
  await expectMovingPicture(page);
  const second = await context.newPage();
  await second.goto("/studio");
  await expect(card(second)).toHaveAttribute("data-selected", "true", { timeout: 15_000 });
  await expectMovingPicture(second);
  await expectMovingPicture(page);
  // One playing RTSP session per stream path the app uses, however many tabs watch.
  const playing = ipCamera.sessions().filter((s) => s.playing);
  expect(playing.length).toBeGreaterThan(0);
  const perPath = new Map<string, number>();
  for (const session of playing) perPath.set(session.path, (perPath.get(session.path) ?? 0) + 1);
  expect([...perPath.values()].every((n) => n === 1)).toBe(true);
  await second.close();
});

test("selecting an IP camera with PTZ binds the joystick and click-to-move to it, with no PTZ form", async ({ page, ipCamera }) => {
  await addIpCamera(page, ipCamera);
  await expect(card(page).getByTestId("status-dot")).toHaveAttribute("data-online", "true", { timeout: 30_000 });
  await page.getByRole("tab", { name: "Settings" }).click();
  const panel = page.getByTestId("ptz-panel");
  await expect(panel.getByTestId("ptz-connected")).toContainText(`Controlling Stage (${hostOf(ipCamera)})`);
  const received = () => ipCamera.onvif()!.recorder.commands.filter((c) => c.op === "ContinuousMove" || c.op === "Stop");
  const up = panel.getByRole("button", { name: "Move up", exact: true });
  await up.hover();
  await page.mouse.down();
  await expect.poll(() => received().some((c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.y"]) > 0), { timeout: 10_000 }).toBe(true);
  await page.mouse.up();
  await expect.poll(() => received().at(-1)?.op, { timeout: 10_000 }).toBe("Stop");
  // Click-to-move on the IP camera's own picture.
  const before = received().length;
  const box = (await page.getByTestId("picture-area").boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.95, box.y + box.height * 0.5);
  await expect
    .poll(
      () =>
        received()
          .slice(before)
          .some((c) => c.op === "ContinuousMove" && Number(c.params["PanTilt.x"]) > 0),
      { timeout: 10_000 },
    )
    .toBe(true);
});
