// Stories over HTTP: create, rename, captions in order, photos, featured photo and counts kept right.
import { describe, expect, it } from "vitest";
import { signUpUser } from "../support/client";
import { jpegDataUrl } from "../support/images";

describe("stories", () => {
  it("records a story: photos and captions, featured photo, photo count, finish", async () => {
    const { client } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Lab bench" })).json();
    const created = await client.post("/api/stories", { cameraId: camera.id, cameraName: "Lab bench" });
    expect(created.status).toBe(201);
    const story = await created.json();
    expect(story).toMatchObject({ cameraId: camera.id, cameraName: "Lab bench", photoCount: 0, isActive: true, finishedAt: null, featuredPhotoId: null });
    expect(story.title).toMatch(/^Story - /);

    const first = await (await client.post("/api/photos", { imageData: await jpegDataUrl(), storyId: story.id, cameraId: camera.id })).json();
    const second = await (await client.post("/api/photos", { imageData: await jpegDataUrl(), storyId: story.id })).json();
    await client.post(`/api/stories/${story.id}/captions`, { caption: "A beaker on the bench.", photoId: first.id });
    await client.post(`/api/stories/${story.id}/captions`, { caption: "Someone pours a liquid.", photoId: second.id });

    const captions = await (await client.get(`/api/stories/${story.id}/captions`)).json();
    expect(captions.map((c: { caption: string; photoId: string }) => [c.caption, c.photoId])).toEqual([
      ["A beaker on the bench.", first.id],
      ["Someone pours a liquid.", second.id],
    ]);
    const photos = await (await client.get(`/api/stories/${story.id}/photos`)).json();
    expect(photos.map((p: { id: string }) => p.id)).toEqual([first.id, second.id]);

    let listed = (await (await client.get("/api/stories")).json())[0];
    expect(listed).toMatchObject({ id: story.id, photoCount: 2, featuredPhotoId: first.id });

    // Deleting the featured photo moves the feature to the next one.
    await client.request("DELETE", `/api/photos/${first.id}`);
    listed = await (await client.get(`/api/stories/${story.id}`)).json();
    expect(listed).toMatchObject({ photoCount: 1, featuredPhotoId: second.id });

    const finished = await (await client.post(`/api/stories/${story.id}/finish`)).json();
    expect(finished.isActive).toBe(false);
    expect(new Date(finished.finishedAt).getTime()).toBeGreaterThan(0);
    const again = await (await client.post(`/api/stories/${story.id}/finish`)).json();
    expect(again.finishedAt).toBe(finished.finishedAt);
    const late = await client.post("/api/photos", { imageData: await jpegDataUrl(), storyId: story.id });
    expect(late.status).toBe(409);
  });

  it("renames with a trimmed, non-empty title", async () => {
    const { client } = await signUpUser();
    const story = await (await client.post("/api/stories", { title: "Field trip" })).json();
    const renamed = await client.request("PATCH", `/api/stories/${story.id}`, { json: { title: "  Pond life  " } });
    expect((await renamed.json()).title).toBe("Pond life");
    const blank = await client.request("PATCH", `/api/stories/${story.id}`, { json: { title: " " } });
    expect(blank.status).toBe(400);
    expect((await blank.json()).errors.title).toEqual(["Title is required"]);
  });

  it("deleting a story keeps its photos; deleting its camera keeps the story and its camera name", async () => {
    const { client } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Nest cam" })).json();
    const story = await (await client.post("/api/stories", { cameraId: camera.id })).json();
    expect(story.cameraName).toBe("Nest cam");
    const photo = await (await client.post("/api/photos", { imageData: await jpegDataUrl(), storyId: story.id, cameraId: camera.id })).json();
    await client.request("DELETE", `/api/cameras/${camera.id}`);
    const kept = await (await client.get(`/api/stories/${story.id}`)).json();
    expect(kept).toMatchObject({ cameraId: null, cameraName: "Nest cam" });
    expect(await (await client.get(`/api/photos/${photo.id}`)).json()).toMatchObject({ cameraId: null, cameraName: "Nest cam" });

    expect((await client.request("DELETE", `/api/stories/${story.id}`)).status).toBe(204);
    expect(await (await client.get(`/api/photos/${photo.id}`)).json()).toMatchObject({ id: photo.id, storyId: null });
  });

  it("validates captions", async () => {
    const { client } = await signUpUser();
    const story = await (await client.post("/api/stories", {})).json();
    const empty = await client.post(`/api/stories/${story.id}/captions`, { caption: "" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).errors.caption).toEqual(["Caption is required"]);
  });
});
