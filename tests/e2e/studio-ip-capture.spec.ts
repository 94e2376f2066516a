// Capturing an IP camera in the studio, on a desktop and on a phone: the server takes the picture from the camera's
// main stream and saves the photo (POST /api/cameras/{id}/capture), so the full-resolution frame never comes to the
// browser and goes back (no GET …/snapshot, no POST /api/photos with the image).
import type { Page, Request } from "@playwright/test";
import sharp from "sharp";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { fakeCameraRow } from "../support/ip-cameras";
import { expect, signUpInBrowser, test as base } from "./fixtures";
import { seedIpCamera } from "./seed";

const test = base.extend<{ ipCamera: FakeIpCamera }>({
  ipCamera: async ({ page: _page }, provide) => {
    const camera = await startFakeIpCamera();
    await provide(camera);
    await camera.close();
  },
});

// ffmpeg start-up and the first keyframe take seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

/** The requests the page makes that carry or fetch a photo's picture. */
function pictureRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (/\/api\/cameras\/[^/]+\/(capture|snapshot)$/.test(path) || path === "/api/photos") seen.push(`${request.method()} ${path}`);
  });
  return seen;
}

for (const device of ["desktop", "phone"] as const) {
  test.describe(device, () => {
    if (device === "phone") test.use(PHONE);

    test("Capture on an IP camera has the server take and save the photo at the main stream's 1280×720", async ({ page, ipCamera }) => {
      const { username } = await signUpInBrowser(page);
      const cameraId = await seedIpCamera(username, "Porch", fakeCameraRow(ipCamera));
      await page.reload();
      // The live view plays (the Capture button needs a live source).
      await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 45_000 }).toBeGreaterThan(0);
      const requests = pictureRequests(page);

      if (device === "desktop") {
        await page.getByRole("button", { name: "Capture", exact: true }).click();
        await expect(page.getByTestId("photo-thumb")).toHaveCount(1, { timeout: 30_000 });
      } else {
        const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
        await nav.getByRole("button", { name: "Capture" }).tap();
        await page.getByRole("dialog", { name: "Capture Controls" }).getByRole("button", { name: "Take Photo" }).tap();
        await nav.getByRole("button", { name: "Photos" }).tap();
        await expect(page.getByRole("dialog", { name: "Photos & Stories" }).getByTestId("photo-thumb")).toHaveCount(1, { timeout: 30_000 });
      }

      expect(requests).toEqual([`POST /api/cameras/${cameraId}/capture`]);
      const photos = (await (await page.request.get("/api/photos")).json()) as { cameraId: string; imageUrl: string; videoWidth: number; videoHeight: number }[];
      expect(photos).toHaveLength(1);
      expect(photos[0]).toMatchObject({ cameraId, videoWidth: 1280, videoHeight: 720 });
      const image = await sharp(await (await page.request.get(photos[0]!.imageUrl)).body()).metadata();
      expect([image.width, image.height]).toEqual([1280, 720]);
    });
  });
}
