// POST /api/cameras/{id}/capture on the real app against the fake IP camera on loopback: the server takes the
// picture from the camera's main stream at full resolution and saves it as a photo (the same answer as POST
// /api/photos), only for the owner's IP camera, and says why in problem JSON when it cannot.
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { signUpUser, type TestUser } from "../support/client";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";
import { closedCameraRow, fakeCameraRow, insertIpCamera } from "../support/ip-cameras";
import { photoSchema } from "#app/schemas/photos";

async function sharedDb() {
  await openSharedDatabase();
  return (await import("#db/index")).db();
}

let camera: FakeIpCamera;
let owner: TestUser;
let cameraId: string;

beforeAll(async () => {
  camera = await startFakeIpCamera();
  owner = await signUpUser();
  cameraId = await insertIpCamera(await sharedDb(), owner.id, fakeCameraRow(camera, { name: "Porch" }));
});
afterAll(() => camera?.close());

const photosOf = async (user: TestUser) => (await (await user.client.get("/api/photos")).json()) as Array<{ id: string }>;

describe("POST /api/cameras/{id}/capture", () => {
  it("saves the main stream's picture at full resolution as a photo, with the fields sent, as POST /api/photos answers", async () => {
    const story = await (await owner.client.post("/api/stories", { cameraId, title: "Porch story" })).json();
    const response = await owner.client.post(`/api/cameras/${cameraId}/capture`, {
      captureMode: "burst",
      storyId: story.id,
      autoCapture: true,
      detectionQuery: "person",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.2, x_max: 0.5, y_max: 0.9, label: "person #3" }],
      frameRate: 15,
    });
    expect(response.status).toBe(201);
    const photo = photoSchema.parse(await response.json());
    expect(photo).toMatchObject({
      cameraId,
      cameraName: "Porch",
      storyId: story.id,
      captureMode: "burst",
      autoCapture: true,
      detectionQuery: "person",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.2, x_max: 0.5, y_max: 0.9, label: "person #3" }],
      frameRate: 15,
      // The main stream (/1, 1280×720), not the 640×360 sub-stream the live view plays.
      width: 1280,
      height: 720,
      videoWidth: 1280,
      videoHeight: 720,
    });
    const image = await owner.client.get(photo.imageUrl);
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.length).toBe(photo.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 1280, height: 720 });
    expect((await owner.client.get(photo.thumbnailUrl)).status).toBe(200);
    expect((await photosOf(owner)).map((p) => p.id)).toContain(photo.id);
  });

  it("is 404 for another user's camera, a camera that does not exist and a camera that is not an IP camera, and saves nothing", async () => {
    const stranger = await signUpUser();
    const theirs = await stranger.client.post(`/api/cameras/${cameraId}/capture`, {});
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get("content-type")).toContain("application/problem+json");
    expect((await stranger.client.post(`/api/cameras/${randomUUID()}/capture`, {})).status).toBe(404);
    const webcam = await (await stranger.client.post("/api/cameras", { name: "Desk", model: "WebRTC Webcam", status: "online", deviceId: "x" })).json();
    const notIp = await stranger.client.post(`/api/cameras/${webcam.id}/capture`, {});
    expect(notIp.status).toBe(404);
    expect(notIp.headers.get("content-type")).toContain("application/problem+json");
    expect(await photosOf(stranger)).toEqual([]);
  });

  it("answers 503 naming the reason when the camera gives no picture (offline, wrong login), and saves nothing", async () => {
    const user = await signUpUser();
    const offline = await insertIpCamera(await sharedDb(), user.id, closedCameraRow("Gone"));
    const unreachable = await user.client.post(`/api/cameras/${offline}/capture`, {});
    expect(unreachable.status).toBe(503);
    expect(unreachable.headers.get("content-type")).toContain("application/problem+json");
    expect((await unreachable.json()).detail).toBe("The camera gave no picture: unreachable");

    const locked = await insertIpCamera(await sharedDb(), user.id, fakeCameraRow(camera, { password: "wrong" }));
    const refused = await user.client.post(`/api/cameras/${locked}/capture`, {});
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toContain("authentication failed");
    expect(await photosOf(user)).toEqual([]);
  });

  it("refuses bad fields with 400 and errors under the field, and a finished story with 409", async () => {
    const bad = await owner.client.post(`/api/cameras/${cameraId}/capture`, { captureMode: "movie" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toHaveProperty("captureMode");
    const story = await (await owner.client.post("/api/stories", { cameraId, title: "Done" })).json();
    expect((await owner.client.post(`/api/stories/${story.id}/finish`, {})).status).toBe(200);
    const finished = await owner.client.post(`/api/cameras/${cameraId}/capture`, { storyId: story.id });
    expect(finished.status).toBe(409);
    expect((await finished.json()).errors).toHaveProperty("storyId");
  });
});
