// Cameras and presets over HTTP: CRUD, rename rules, thumbnails, validation, 401.
import { describe, expect, it } from "vitest";
import { Client, signUpUser } from "../support/client";
import { blobFilesOf } from "../support/blobs";
import { holdRowThenReferTo } from "../support/deadlock";
import { dataUrl, jpegDataUrl, pngBytes } from "../support/images";

describe("cameras", () => {
  it("creates, lists, renames, stores video settings and deletes a camera", async () => {
    const { client, id: userId } = await signUpUser();
    const created = await client.post("/api/cameras", {
      name: "  Front door  ",
      model: "WebRTC Webcam",
      status: "online",
      deviceId: "abc123",
      deviceLabel: "HD Pro Webcam C920 (046d:082d)",
    });
    expect(created.status).toBe(201);
    const camera = await created.json();
    expect(camera).toMatchObject({
      name: "Front door",
      model: "WebRTC Webcam",
      status: "online",
      deviceId: "abc123",
      deviceLabel: "HD Pro Webcam C920 (046d:082d)",
      thumbnailUrl: null,
      videoWidth: null,
    });

    const renamed = await client.request("PUT", `/api/cameras/${camera.id}`, { json: { name: "Porch" } });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).name).toBe("Porch");

    const patched = await client.request("PATCH", `/api/cameras/${camera.id}`, { json: { videoWidth: 1280, videoHeight: 720, frameRate: 30 } });
    expect(await patched.json()).toMatchObject({ id: camera.id, videoWidth: 1280, videoHeight: 720, frameRate: 30 });

    const list = await (await client.get("/api/cameras")).json();
    expect(list).toEqual([expect.objectContaining({ id: camera.id, name: "Porch", videoWidth: 1280 })]);

    expect((await client.request("DELETE", `/api/cameras/${camera.id}`)).status).toBe(204);
    expect(await (await client.get("/api/cameras")).json()).toEqual([]);
    expect((await client.request("DELETE", `/api/cameras/${camera.id}`)).status).toBe(404);
    expect(blobFilesOf(userId)).toEqual([]);
  });

  it("stores a thumbnail as a 320 px JPEG behind a versioned, cacheable URL and replaces it", async () => {
    const { client, id: userId } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Desk", model: "Static Photo", status: "online", thumbnail: await jpegDataUrl(1280, 720) })).json();
    expect(camera.thumbnailUrl).toMatch(new RegExp(`^/api/cameras/${camera.id}/thumbnail\\?v=`));
    expect(camera.imageUrl).toBe(`/api/cameras/${camera.id}/image?v=${camera.thumbnailUrl.split("?v=")[1]}`);
    const picture = Buffer.from(await (await client.get(camera.imageUrl)).arrayBuffer());
    expect(await (await import("sharp")).default(picture).metadata()).toMatchObject({ width: 1280, height: 720 });
    expect(camera.imageUrl).toMatch(new RegExp(`^/api/cameras/${camera.id}/image\\?v=`));
    const sharpMeta = (await import("sharp")).default;
    expect(await sharpMeta(Buffer.from(await (await client.get(camera.imageUrl)).arrayBuffer())).metadata()).toMatchObject({ width: 1280, height: 720 });
    const image = await client.get(camera.thumbnailUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(image.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const sharp = (await import("sharp")).default;
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 180]);

    const updated = await (await client.request("PUT", `/api/cameras/${camera.id}`, { json: { thumbnail: dataUrl(await pngBytes(100, 100), "image/png") } })).json();
    expect(updated.thumbnailUrl).not.toBe(camera.thumbnailUrl);
    expect(blobFilesOf(userId)).toHaveLength(2); // the new picture and its thumbnail; the old ones are gone
    const full = await client.get(updated.imageUrl);
    expect(full.headers.get("content-type")).toBe("image/png");
  });

  it.each([
    [{ model: "x" }, "name", "Name is required"],
    [{ name: "   " }, "name", "Name is required"],
    [{ name: "x".repeat(101) }, "name", "Name must be at most 100 characters"],
  ])("rejects a camera %j with a 400 naming %s", async (body, field, message) => {
    const { client } = await signUpUser();
    const response = await client.post("/api/cameras", body);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[field]).toContain(message);
  });

  it("enforces the rename rules on PUT and validates PATCH", async () => {
    const { client } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Cam" })).json();
    const blank = await client.request("PUT", `/api/cameras/${camera.id}`, { json: { name: "  " } });
    expect(blank.status).toBe(400);
    expect((await blank.json()).errors.name).toContain("Name is required");
    const nothing = await client.request("PUT", `/api/cameras/${camera.id}`, { json: {} });
    expect(nothing.status).toBe(400);
    const badPatch = await client.request("PATCH", `/api/cameras/${camera.id}`, { json: { videoWidth: "wide", videoHeight: 720, frameRate: 30 } });
    expect(badPatch.status).toBe(400);
    expect((await badPatch.json()).errors.videoWidth).toBeDefined();
    expect((await (await client.get(`/api/cameras/${camera.id}`)).json()).name).toBe("Cam");
  });

  it("answers 404 for ids that are not UUIDs, and 401 when anonymous", async () => {
    const { client } = await signUpUser();
    expect((await client.get("/api/cameras/not-a-uuid")).status).toBe(404);
    const anonymous = new Client();
    for (const [method, path] of [
      ["GET", "/api/cameras"],
      ["POST", "/api/cameras"],
      ["GET", "/api/presets"],
    ] as const) {
      expect((await anonymous.request(method, path, { json: method === "POST" ? { name: "x" } : undefined })).status).toBe(401);
    }
  });
});

describe("presets", () => {
  it("saves presets by number or position, filters by camera, refuses reserved and duplicate numbers", async () => {
    const { client } = await signUpUser();
    const a = await (await client.post("/api/cameras", { name: "PTZ A" })).json();
    const b = await (await client.post("/api/cameras", { name: "PTZ B" })).json();
    const pulpit = await client.post("/api/presets", { cameraId: a.id, name: "Pulpit", number: 1 });
    expect(pulpit.status).toBe(201);
    const wide = await client.post("/api/presets", { cameraId: b.id, name: "Wide", position: { pan: -0.5, tilt: 0.1, zoom: 0 } });
    expect(await wide.json()).toMatchObject({ cameraId: b.id, name: "Wide", number: null, position: { pan: -0.5, tilt: 0.1, zoom: 0 } });

    const forA = await (await client.get(`/api/presets?cameraId=${a.id}`)).json();
    expect(forA.map((p: { name: string }) => p.name)).toEqual(["Pulpit"]);
    expect(await (await client.get("/api/presets")).json()).toHaveLength(2);

    const reserved = await client.post("/api/presets", { cameraId: a.id, name: "Menu", number: 95 });
    expect(reserved.status).toBe(400);
    expect((await reserved.json()).errors.number[0]).toMatch(/reserved/);
    const duplicate = await client.post("/api/presets", { cameraId: a.id, name: "Again", number: 1 });
    expect(duplicate.status).toBe(409);
    const neither = await client.post("/api/presets", { cameraId: a.id, name: "Nothing" });
    expect(neither.status).toBe(400);

    const id = (await pulpit.json()).id;
    expect((await client.request("DELETE", `/api/presets/${id}`)).status).toBe(204);
    expect(await (await client.get(`/api/presets?cameraId=${a.id}`)).json()).toEqual([]);
  });

  it("deleting a camera removes its presets", async () => {
    const { client } = await signUpUser();
    const cam = await (await client.post("/api/cameras", { name: "PTZ" })).json();
    await client.post("/api/presets", { cameraId: cam.id, name: "One", number: 2 });
    await client.request("DELETE", `/api/cameras/${cam.id}`);
    expect(await (await client.get("/api/presets")).json()).toEqual([]);
  });

  it("deletes a camera when PostgreSQL aborts it to break a deadlock with a background writer", async () => {
    const { client } = await signUpUser();
    const cam = (await (await client.post("/api/cameras", { name: "Door" })).json()) as { id: string };
    const line = (await (await client.post(`/api/cameras/${cam.id}/lines`, { name: "In", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json()) as { id: string };
    // As the Insights rollup holds the camera's rows and then writes rows referring to the camera.
    const deletion = await holdRowThenReferTo({
      hold: (tx) => tx`select 1 from vision_lines where id = ${line.id} for update`,
      deletion: `delete from "cameras"`,
      start: () => client.request("DELETE", `/api/cameras/${cam.id}`),
      refer: (tx) => tx`insert into insight_rollup_queue (camera_id, hour) values (${cam.id}, date_trunc('hour', now()))`,
    });
    expect(deletion.status).toBe(204);
    expect((await client.get(`/api/cameras/${cam.id}/lines`)).status).toBe(404);
  });
});
