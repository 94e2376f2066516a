// Local detection in the real studio: a fake webcam panning real photos of people, the Detections tab's Local
// source switched on, and boxes labelled "person #id" drawn over the picture by the on-device detector — with no
// request to any other origin, no vision call through our server, and not one call reaching the fake Moondream.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { addWebcam, expect, saveOwnKey, signUpInBrowser, test, moondreamCalls } from "./fixtures";

test.describe.configure({ timeout: 120_000 }); // the model loads and compiles in seconds on 2 busy cores
test.beforeAll(async () => {
  await peopleVideoY4m();
});
// The browser starts after beforeAll has written the video (it is launched for the first test's page).
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

test("local detection draws tracked people with class and id, on this device only", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  const visionCalls: string[] = [];
  page.context().on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) elsewhere.push(url);
    if (url.startsWith(`${origin}/api/vision`)) visionCalls.push(url);
  });
  await signUpInBrowser(page);
  // An own key, so any Moondream call this studio made would be counted against it by the fake.
  const key = await saveOwnKey(page, "e2e-local");
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  await page.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).check();
  await expect(page.getByTestId("box-detection")).toBeHidden();
  const local = page.getByTestId("local-detection");
  await expect(local.getByRole("checkbox", { name: "person", exact: true })).toBeChecked();
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();

  // Headless Chromium here offers WASM only (no GPU): the backend in use is shown.
  await expect(local.getByTestId("local-backend")).toHaveText("Running on WASM", { timeout: 60_000 });
  const canvas = page.getByTestId("detection-canvas");
  await expect(canvas).toHaveAttribute("data-kind", "local");
  // Tracks show once confirmed (three frames): each box is labelled with its class and track id.
  await expect(canvas).toHaveAttribute("data-labels", /^person #\d+(\|person #\d+)*$/, { timeout: 45_000 });
  await expect(local.getByTestId("local-status")).toContainText("frames/s");
  // Something is really drawn: the box colour shows on the canvas.
  expect(
    await canvas.evaluate((c: HTMLCanvasElement) =>
      c
        .getContext("2d")!
        .getImageData(0, 0, c.width, c.height)
        .data.some((v, i) => i % 4 === 3 && v > 0),
    ),
  ).toBe(true);

  // One source at a time: choosing Moondream stops local detection and clears its boxes (no Moondream loop starts).
  await page.getByRole("radio", { name: "Moondream (any object you can name)" }).check();
  await expect(canvas).toHaveAttribute("data-count", "0");
  await expect(page.getByRole("switch", { name: "Enable Box Detection" })).toHaveAttribute("aria-checked", "false");
  await page.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).check();
  await expect(page.getByRole("switch", { name: "Enable Local Detection" })).toHaveAttribute("aria-checked", "false");

  expect(elsewhere).toEqual([]);
  expect(visionCalls).toEqual([]);
  expect(await moondreamCalls(page.request, key)).toBe(0);
});

test("people counting's local mode counts the people in view continuously, with no call", async ({ page }) => {
  await signUpInBrowser(page);
  const key = await saveOwnKey(page, "e2e-local-count");
  await addWebcam(page);
  await page.getByRole("tab", { name: "AI" }).click();
  await page.getByRole("switch", { name: "Count People Locally" }).click();
  const count = page.getByTestId("local-people-count-value");
  // The pan shows one to three people at a time: the count follows them (confirmed tracks only).
  await expect(count).toHaveText(/^[1-9]$/, { timeout: 60_000 });
  // Local detection's boxes stay off: the count alone runs the detector.
  await expect(page.getByTestId("detection-canvas")).toHaveAttribute("data-count", "0");
  await page.getByRole("switch", { name: "Count People Locally" }).click();
  await expect(page.getByTestId("local-people-count")).toBeHidden();
  expect(await moondreamCalls(page.request, key)).toBe(0);
});
