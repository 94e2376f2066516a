// Local vision's events end to end: a line across the people's path (made through the API) that saves a photo and
// asks Moondream to describe it, local detection on in the real studio, and the crossing arriving at a webhook
// receiver on loopback, signed, with the photo's link and the (fake) Moondream's answer; the photo is in the library
// with that description and the crossing person's box, and the Counts panel counts the crossing.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { startReceiver, type Receiver, type Received } from "../support/webhook-receiver";
import { addWebcam, expect, saveOwnKey, scriptAnswers, signUpInBrowser, test } from "./fixtures";

test.describe.configure({ timeout: 180_000 }); // the model loads and compiles in seconds on 2 busy cores
let receiver: Receiver;
test.beforeAll(async () => {
  await peopleVideoY4m();
  // The one loopback address the browser tests' server may deliver webhooks to (tests/e2e/global-setup.ts).
  receiver = await startReceiver("127.0.0.2");
});
test.afterAll(() => receiver.close());
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

const ANSWER = "A person in a dark jacket walking to the left.";
const PROMPT = "Describe the person in the box.";

test("a line crossing reaches a signed webhook with its photo link and Moondream's description, and the photo is saved", async ({ page }) => {
  await signUpInBrowser(page);
  const headers = { origin: new URL(page.url()).origin };
  const key = await saveOwnKey(page, "e2e-events");
  // Every describe call answers this (the pan may make several crossings).
  await scriptAnswers(
    page,
    key,
    Array.from({ length: 200 }, () => ANSWER),
  );
  const settings = await page.request.post("/api/webhooks/settings", { data: { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "detailed" }, headers });
  expect(settings.status()).toBe(200);
  receiver.secret = ((await (await page.request.get("/api/webhooks/secret")).json()) as { secret: string }).secret;

  await addWebcam(page);
  const [camera] = (await (await page.request.get("/api/cameras")).json()) as Array<{ id: string; name: string }>;
  // Top to bottom through the middle: the pan carries people across it right to left.
  const created = await page.request.post(`/api/cameras/${camera!.id}/lines`, {
    data: { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 }, anchor: "centre", settleFrames: 2, capturePhoto: true, describePrompt: PROMPT },
    headers,
  });
  expect(created.status()).toBe(201);
  const line = (await created.json()) as { id: string };

  await page.getByRole("tab", { name: "Detections" }).click();
  await page.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).check();
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();

  const isCrossing = (r: Received) => r.payload.type === "line.crossed" && r.status === 200;
  await receiver.waitFor((r) => r.requests.some(isCrossing), 150_000);
  const delivery = receiver.requests.find(isCrossing)!;
  expect(delivery.verified).toBe(true);
  const data = delivery.payload.data as { photoId: string; photoUrl: string; description: string; box: unknown };
  expect(data).toMatchObject({
    lineId: line.id,
    lineName: "Door",
    cameraId: camera!.id,
    cameraName: camera!.name,
    label: "person",
    direction: expect.stringMatching(/^(in|out)$/),
    description: ANSWER,
    photoId: expect.stringMatching(/^[0-9a-f-]{36}$/),
  });
  expect(data.photoUrl).toContain(`/api/photos/${data.photoId}/image?`);
  // The link opens the picture with no session.
  const image = await fetch(data.photoUrl);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toMatch(/^image\//);

  // The photo: auto-captured, described, with the crossing person's box.
  const photo = (await (await page.request.get(`/api/photos/${data.photoId}`)).json()) as Record<string, unknown>;
  expect(photo).toMatchObject({
    cameraId: camera!.id,
    autoCapture: true,
    description: ANSWER,
    detectionQuery: expect.stringMatching(/^Door: person crossed (in|out)$/),
    detectionBoxes: [expect.objectContaining({ label: expect.stringMatching(/^person #\d+$/) })],
  });
  // The Moondream call was the rule's question about the frame, with the user's own key.
  const control = new URL(`/__fake/stats?key=${encodeURIComponent(key)}`, process.env.E2E_MOONDREAM_ENDPOINT).toString();
  expect(((await (await page.request.get(control)).json()) as { calls: number; last: { path: string } }).last.path).toBe("/query");

  // In the library: the description shows in the photo's view.
  const thumb = page.getByTestId("photo-thumb").first();
  await expect(thumb).toBeVisible();
  await thumb.getByRole("button").first().click();
  await expect(page.getByTestId("photo-description")).toContainText(ANSWER);
  await page.keyboard.press("Escape");

  // The Counts panel counts it (reloaded after the batch was posted).
  const row = page.getByTestId("counts-panel").getByTestId("counts-row").filter({ hasText: "Door" });
  await expect(row.getByRole("cell").first()).toHaveText(/^(?!0 in · 0 out$)\d+ in · \d+ out$/);
  await expect(page.getByTestId("counts-panel").getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", `/api/cameras/${camera!.id}/counts.csv`);
});
