// Isolation on create: another user cannot attach their own records to the owner's rows (the route × role
// matrix in tests/security/route-matrix.test.ts covers every route that takes an id).
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegBytes, jpegDataUrl } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import { openTestBlobStore } from "../support/blob-store";

let owner: TestUser;
let intruder: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  await useSharedDatabase();
  const { addSnapshot } = await import("#server/counting/service");
  const { db } = await import("#db/index");
  const blobs = await openTestBlobStore();
  owner = await signUpUser();
  intruder = await signUpUser();
  const c = owner.client;
  ids.camera = (await (await c.post("/api/cameras", { name: "Owner cam", thumbnail: await jpegDataUrl(64, 48) })).json()).id;
  ids.preset = (await (await c.post("/api/presets", { cameraId: ids.camera, name: "Home", number: 1 })).json()).id;
  ids.story = (await (await c.post("/api/stories", { cameraId: ids.camera, title: "Owner story" })).json()).id;
  ids.photo = (await (await c.post("/api/photos", { imageData: await jpegDataUrl(), cameraId: ids.camera, storyId: ids.story })).json()).id;
  await c.post(`/api/stories/${ids.story}/captions`, { caption: "Owner caption", photoId: ids.photo });
  ids.lut = (await (await c.post("/api/luts", { name: "Owner LUT", lutData: "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n" })).json()).id;
  ids.session = (await (await c.post("/api/people-count/sessions", { cameraId: ids.camera })).json()).id;
  ids.snapshot = (await addSnapshot(db(), blobs, owner.id, ids.session!, { image: await jpegBytes(), aiCount: 4 })).snapshot.id;
});

/** Everything the owner can see, to compare before and after the intruder's attempts. */
async function ownerView() {
  const c = owner.client;
  const read = async (path: string) => (await c.get(path)).json();
  return {
    cameras: await read("/api/cameras"),
    presets: await read("/api/presets"),
    photos: await read("/api/photos"),
    stories: await read("/api/stories"),
    captions: await read(`/api/stories/${ids.story}/captions`),
    sessions: await read("/api/people-count/sessions"),
    luts: await read("/api/luts"),
    snapshots: await read(`/api/people-count/sessions/${ids.session}/snapshots`),
  };
}

// Every route that takes the owner's id is tried by another user and an admin in tests/security/route-matrix.test.ts.
describe("another user", () => {
  it("cannot attach their own records to the owner's camera, story or photo", async () => {
    const c = intruder.client;
    const before = await ownerView();
    expect((await c.post("/api/photos", { imageData: await jpegDataUrl(), cameraId: ids.camera })).status).toBe(404);
    expect((await c.post("/api/photos", { imageData: await jpegDataUrl(), storyId: ids.story })).status).toBe(404);
    expect((await c.post("/api/presets", { cameraId: ids.camera, name: "x", number: 5 })).status).toBe(404);
    expect((await c.post("/api/stories", { cameraId: ids.camera })).status).toBe(404);
    expect((await c.post("/api/people-count/sessions", { cameraId: ids.camera })).status).toBe(404);
    const ownStory = (await (await c.post("/api/stories", {})).json()).id;
    expect((await c.post(`/api/stories/${ownStory}/captions`, { caption: "x", photoId: ids.photo })).status).toBe(404);
    expect(await ownerView()).toEqual(before);
    for (const list of ["/api/cameras", "/api/photos", "/api/presets", "/api/people-count/sessions"]) {
      expect(JSON.stringify(await (await c.get(list)).json()), list).not.toContain(ids.camera);
    }
  });
});
