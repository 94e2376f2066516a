// Photos over HTTP: capture payloads, image intake limits, cursor pages, image URLs with ETags, deletion.
import { describe, expect, inject, it } from "vitest";
import postgres from "postgres";
import { afterAll } from "vitest";
import { Client, signUpUser } from "../support/client";
import { blobFilesOf } from "../support/blobs";
import { dataUrl, jpegBytes, jpegDataUrl, pngBytes } from "../support/images";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

async function photoCount(userId: string) {
  const [row] = await sql`select count(*)::int as n from photos where user_id = ${userId}`;
  return row!.n as number;
}

describe("POST /api/photos", () => {
  it("stores the capture with its metadata and serves the image and a 320 px thumbnail", async () => {
    const { client, id: userId } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Bird feeder" })).json();
    const original = await jpegBytes(1280, 720);
    const response = await client.post("/api/photos", {
      cameraId: camera.id,
      imageData: dataUrl(original),
      captureMode: "burst",
      videoWidth: 1280,
      videoHeight: 720,
      frameRate: 30,
      detectionQuery: "bird",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.2, x_max: 0.5, y_max: 0.6 }],
      autoCapture: true,
    });
    expect(response.status).toBe(201);
    const photo = await response.json();
    expect(photo).toMatchObject({
      cameraId: camera.id,
      cameraName: "Bird feeder",
      captureMode: "burst",
      autoCapture: true,
      detectionQuery: "bird",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.2, x_max: 0.5, y_max: 0.6 }],
      width: 1280,
      height: 720,
      bytes: original.length,
      imageUrl: `/api/photos/${photo.id}/image`,
      thumbnailUrl: `/api/photos/${photo.id}/thumbnail`,
    });
    expect(photo).not.toHaveProperty("imageData");

    const image = await client.get(photo.imageUrl);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(original)).toBe(true);
    const etag = image.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(image.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect((await client.get(photo.imageUrl, { "if-none-match": etag })).status).toBe(304);

    const thumb = await client.get(photo.thumbnailUrl);
    const sharp = (await import("sharp")).default;
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 320, height: 180, format: "jpeg" });

    const full = await (await client.get(`/api/photos/${photo.id}`)).json();
    expect(full.imageData).toBe(dataUrl(original));
    expect(blobFilesOf(userId).sort()).toEqual([`photos/${photo.id}/original.jpg`, `photos/${photo.id}/thumbnail.jpg`]);
  });

  it("trusts the bytes, not the declared type: a PNG declared as JPEG is stored as PNG", async () => {
    const { client } = await signUpUser();
    const photo = await (await client.post("/api/photos", { imageData: dataUrl(await pngBytes(), "image/jpeg") })).json();
    expect((await client.get(photo.imageUrl)).headers.get("content-type")).toBe("image/png");
  });

  const hostile: Array<[string, () => Promise<unknown>, number, RegExp]> = [
    [
      "an SVG declared as a PNG",
      async () => dataUrl('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>', "image/png"),
      422,
      /not a JPEG, PNG or WebP/,
    ],
    [
      "an HTML document declared as a PNG",
      async () => dataUrl("<!doctype html><html><body><script>alert(1)</script></body></html>", "image/png"),
      422,
      /not a readable JPEG, PNG or WebP/,
    ],
    ["a truncated JPEG", async () => dataUrl((await jpegBytes(800, 600)).subarray(0, 3000)), 422, /damaged or incomplete/],
    ["a text file as a data URL", async () => dataUrl("just some text", "text/plain"), 422, /Only JPEG, PNG and WebP/],
    ["not base64 at all", async () => "data:image/jpeg;base64,@@@@!!!!", 422, /not valid base64/],
    ["a 20 000 × 20 000 image header", async () => dataUrl(await hugePngHeader()), 413, /larger than 40 megapixels/],
  ];

  it.each(hostile)("refuses %s with a clear message and stores nothing", async (_name, make, status, message) => {
    const { client, id: userId } = await signUpUser();
    const response = await client.post("/api/photos", { imageData: await make() });
    expect(response.status).toBe(status);
    expect((await response.json()).detail).toMatch(message);
    expect(await photoCount(userId)).toBe(0);
    expect(blobFilesOf(userId)).toEqual([]);
  });

  it("refuses a 20 MB body with 413 and stores nothing", async () => {
    const { client, id: userId } = await signUpUser();
    const response = await client.post("/api/photos", { imageData: `data:image/jpeg;base64,${"A".repeat(22 * 1024 * 1024)}` });
    expect(response.status).toBe(413);
    expect(await photoCount(userId)).toBe(0);
    expect(blobFilesOf(userId)).toEqual([]);
  });

  it("validates the payload's fields and refers only to the user's own camera and story", async () => {
    const { client } = await signUpUser();
    const other = await signUpUser();
    const theirCamera = await (await other.client.post("/api/cameras", { name: "Theirs" })).json();
    const bad = await client.post("/api/photos", { imageData: await jpegDataUrl(), captureMode: "video" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.captureMode).toEqual(["captureMode must be single, burst or timelapse"]);
    const missing = await client.post("/api/photos", {});
    expect((await missing.json()).errors.imageData).toEqual(["Image data is required"]);
    const foreign = await client.post("/api/photos", { imageData: await jpegDataUrl(), cameraId: theirCamera.id });
    expect(foreign.status).toBe(404);
  });
});

describe("GET /api/photos", () => {
  it("pages newest first with a cursor, filters, and keeps lists free of image bytes", async () => {
    const { client } = await signUpUser();
    const camera = await (await client.post("/api/cameras", { name: "Cam" })).json();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const photo = await (await client.post("/api/photos", { imageData: await jpegDataUrl(16, 16), cameraId: i % 2 ? camera.id : null, autoCapture: i === 4 })).json();
      ids.push(photo.id);
    }
    const first = await client.get("/api/photos?limit=2");
    const page1 = await first.json();
    expect(page1.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    const cursor = first.headers.get("x-next-cursor")!;
    expect(first.headers.get("link")).toContain('rel="next"');
    const page2 = await (await client.get(`/api/photos?limit=2&cursor=${cursor}`)).json();
    expect(page2.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const last = await client.get(`/api/photos?limit=2&cursor=${(await client.get(`/api/photos?limit=4`)).headers.get("x-next-cursor")}`);
    expect((await last.json()).map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(last.headers.get("x-next-cursor")).toBeNull();

    expect((await (await client.get(`/api/photos?cameraId=${camera.id}`)).json()).map((p: { id: string }) => p.id)).toEqual([ids[3], ids[1]]);
    expect((await (await client.get("/api/photos?autoCapture=true")).json()).map((p: { id: string }) => p.id)).toEqual([ids[4]]);
    const text = await (await client.get("/api/photos")).text();
    expect(text).not.toContain("base64");
  });

  it("rejects bad query parameters with a 400 naming them", async () => {
    const { client } = await signUpUser();
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["cursor=garbage", "cursor"],
      ["autoCapture=maybe", "autoCapture"],
      ["cameraId=1", "cameraId"],
    ]) {
      const response = await client.get(`/api/photos?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).errors[field!], query).toBeDefined();
    }
  });
});

describe("DELETE /api/photos/:id", () => {
  it("deletes the row and both blobs", async () => {
    const { client, id: userId } = await signUpUser();
    const photo = await (await client.post("/api/photos", { imageData: await jpegDataUrl() })).json();
    expect(blobFilesOf(userId)).toHaveLength(2);
    expect((await client.request("DELETE", `/api/photos/${photo.id}`)).status).toBe(204);
    expect((await client.get(`/api/photos/${photo.id}`)).status).toBe(404);
    expect((await client.get(photo.imageUrl)).status).toBe(404);
    expect(blobFilesOf(userId)).toEqual([]);
  });

  it("answers 401 to anonymous callers", async () => {
    expect((await new Client().get("/api/photos")).status).toBe(401);
    expect((await new Client().post("/api/photos", { imageData: "x" })).status).toBe(401);
  });
});

/** A valid PNG whose header claims 20 000 × 20 000 pixels (the body is tiny and never decoded). */
async function hugePngHeader(): Promise<Buffer> {
  const { deflateSync, crc32 } = await import("node:zlib");
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20_000, 0);
  ihdr.writeUInt32BE(20_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(10))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
