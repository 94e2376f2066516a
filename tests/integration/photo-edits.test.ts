// Gallery edits from a Moondream outline (POST /api/photos/{id}/segment, then /edits): the cut-out's alpha is the
// fake's polygon pixel by pixel at the photo's resolution, a blur keeps the subject and softens the rest, a crop
// has its aspect and holds the subject; bad outlines and provider failures write nothing; another user's photo is
// 404; a Moondream Station without segmentation is named (501) and remembered.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEGMENTATION_UNSUPPORTED, VISION_PROBLEM, type Box } from "#app/schemas/vision";
import type { Photo } from "#app/schemas/photos";
import { FAKE_OUTLINE, insideFakeOutline } from "../fakes/moondream/server";
import { signUpUser, type TestUser } from "../support/client";
import { tempDir } from "../support/stack";
import { startVisionStack, type VisionStack } from "../support/vision";

const W = 640;
const H = 480;
/** The subject: a red block (the fake outlines the red marker it finds); the rest black-and-white stripes. */
const SUBJECT = { x0: 0.3, y0: 0.25, x1: 0.6, y1: 0.75 };
let stack: VisionStack;
let station: VisionStack;
let dataDir: string;
let source: { png: Buffer; raw: Buffer };

async function sourceImage() {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inSubject = x >= SUBJECT.x0 * W && x < SUBJECT.x1 * W && y >= SUBJECT.y0 * H && y < SUBJECT.y1 * H;
      // The subject is a red checkerboard of 4 px squares, so a blur over it would show ("unchanged" is a real check).
      const rgb = inSubject ? [((x >> 2) + (y >> 2)) % 2 ? 255 : 170, 20, 30] : Math.floor(x / 6) % 2 ? [250, 250, 250] : [5, 5, 5];
      raw.set(rgb, (y * W + x) * 3);
    }
  }
  return {
    png: await sharp(raw, { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toBuffer(),
    raw,
  };
}

const filesUnder = (dir: string): number => readdirSync(dir).reduce((n, name) => n + (statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name)) : 1), 0);

beforeAll(async () => {
  dataDir = tempDir("photo-edits");
  stack = await startVisionStack({ DATA_DIR: dataDir });
  // An older Moondream Station: no /segment.
  station = await startVisionStack({ MOONDREAM_ENDPOINT: stack.fake.legacyStationUrl, MOONDREAM_KEYLESS: "true", MOONDREAM_API_KEY: "" }, stack.fake);
  source = await sourceImage();
});
afterAll(async () => {
  await station?.stop();
  await stack?.stop();
});

async function savePhoto(user: TestUser): Promise<Photo> {
  const response = await user.client.post("/api/photos", { imageData: `data:image/png;base64,${source.png.toString("base64")}` });
  expect(response.status).toBe(201);
  return response.json();
}

async function outline(user: TestUser, photo: Photo, body: object = { object: "red subject" }): Promise<{ path: string; bbox: Box }> {
  const response = await user.client.post(`/api/photos/${photo.id}/segment`, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function edit(user: TestUser, photo: Photo, body: object): Promise<Photo> {
  const response = await user.client.post(`/api/photos/${photo.id}/edits`, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

async function pixelsOf(user: TestUser, photo: Photo, channels: 3 | 4) {
  const response = await user.client.get(`/api/photos/${photo.id}/image`);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const image = sharp(bytes);
  const { data, info } = await (channels === 4 ? image.ensureAlpha() : image.removeAlpha()).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, type: response.headers.get("content-type"), bytes };
}

/**
 * Where a pixel is against the fake's polygon placed at bbox: inside or outside for all of the pixel's square
 * (grown by `margin` pixels), else "edge" (antialiased, any alpha allowed).
 */
function placeOf(px: number, py: number, bbox: Box, margin = 0): "inside" | "outside" | "edge" {
  const corners = [
    [px - margin, py - margin],
    [px + 1 + margin, py - margin],
    [px - margin, py + 1 + margin],
    [px + 1 + margin, py + 1 + margin],
    [px + 0.5, py + 0.5],
  ];
  const inside = corners.map(([x, y]) => insideFakeOutline((x! / W - bbox.x_min) / (bbox.x_max - bbox.x_min), (y! / H - bbox.y_min) / (bbox.y_max - bbox.y_min)));
  return inside.every(Boolean) ? "inside" : inside.some(Boolean) ? "edge" : "outside";
}

describe("photo edits from a Moondream outline", () => {
  it("cuts out the subject: a PNG whose alpha is the fake's polygon pixel by pixel, linked to its source, one AI call", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(user);
    const { path: outlinePath, bbox } = await outline(user, photo);
    expect(outlinePath).toBe(FAKE_OUTLINE);
    expect(bbox.x_min).toBeCloseTo(SUBJECT.x0, 1);
    expect(bbox.y_max).toBeCloseTo(SUBJECT.y1, 1);

    const cut = await edit(user, photo, { kind: "cutout", object: "red subject", path: outlinePath, bbox });
    expect(cut).toMatchObject({ sourcePhotoId: photo.id, editKind: "cutout", width: W, height: H });
    const result = await pixelsOf(user, cut, 4);
    expect(result.type).toBe("image/png");
    expect([result.width, result.height]).toEqual([W, H]);
    let inside = 0;
    let edge = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const place = placeOf(x, y, bbox);
        const i = (y * W + x) * 4;
        if (place === "edge") {
          edge++;
          continue;
        }
        const alpha = result.data[i + 3];
        if (place === "outside") {
          expect(alpha, `alpha at ${x},${y}`).toBe(0);
        } else {
          inside++;
          expect(alpha, `alpha at ${x},${y}`).toBe(255);
          const j = (y * W + x) * 3;
          expect([...result.data.subarray(i, i + 3)], `colour at ${x},${y}`).toEqual([...source.raw.subarray(j, j + 3)]);
        }
      }
    }
    // The diamond fills half its box; only the pixels its edge crosses may be soft.
    const boxPixels = (bbox.x_max - bbox.x_min) * W * (bbox.y_max - bbox.y_min) * H;
    expect(inside).toBeGreaterThan(boxPixels * 0.45);
    expect(edge).toBeLessThan(4 * 2 * ((bbox.x_max - bbox.x_min) * W + (bbox.y_max - bbox.y_min) * H));

    // The new photo is in the library beside its source, which is unchanged.
    const listed = (await (await user.client.get("/api/photos")).json()) as Photo[];
    expect(listed.map((p) => p.id)).toEqual([cut.id, photo.id]);
    expect(listed[1]).toMatchObject({ sourcePhotoId: null, editKind: null, bytes: photo.bytes });
    const usage = await (await user.client.get("/api/moondream/usage")).json();
    expect(usage.totals).toEqual([{ feature: "segmentation", calls: 1 }]);
    // The cut-out is named by what was outlined, so the library's search finds it.
    expect(cut.detectionQuery).toBe("red subject");
    const found = (await (await user.client.get("/api/photos/search?q=subject")).json()) as { items: { photo: Photo }[] };
    expect(found.items.map((item) => item.photo.id)).toEqual([cut.id]);
    expect((await (await user.client.get("/api/moondream/capabilities")).json()).segmentation).toBe("available");
  });

  it("seeds the outline with the points clicked (spatial_refs)", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(user);
    await outline(user, photo, { object: "red subject", points: [{ x: 0.45, y: 0.5 }] });
    expect(stack.fake.calls.at(-1)!.body).toMatchObject({ object: "red subject", spatial_refs: [[0.45, 0.5]] });
  });

  it("blurs the background and leaves the subject as it was", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(user);
    const { path: outlinePath, bbox } = await outline(user, photo);
    const blurred = await edit(user, photo, { kind: "blur", object: "red subject", path: outlinePath, bbox, strength: 100 });
    expect(blurred).toMatchObject({ editKind: "blur", sourcePhotoId: photo.id, width: W, height: H });
    const result = await pixelsOf(user, blurred, 3);
    expect(result.type).toBe("image/jpeg");
    const diff = { inside: { sum: 0, n: 0 }, outside: { sum: 0, n: 0 } };
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        // 2 px away from the outline: JPEG's 8×8 blocks blend a little across it.
        const place = placeOf(x, y, bbox, 2);
        if (place === "edge") continue;
        const i = (y * W + x) * 3;
        const d = (Math.abs(result.data[i]! - source.raw[i]!) + Math.abs(result.data[i + 1]! - source.raw[i + 1]!) + Math.abs(result.data[i + 2]! - source.raw[i + 2]!)) / 3;
        diff[place].sum += d;
        diff[place].n += 1;
      }
    }
    // Inside: only JPEG's loss (quality 92); outside: the 6 px stripes are blurred to grey.
    expect(diff.inside.sum / diff.inside.n).toBeLessThan(4);
    expect(diff.outside.sum / diff.outside.n).toBeGreaterThan(60);
  });

  it.each([
    ["16:9", 16 / 9],
    ["1:1", 1],
    ["9:16", 9 / 16],
    ["4:5", 4 / 5],
  ])("crops to %s around the subject", async (aspect, ratio) => {
    const user = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(user);
    const { path: outlinePath, bbox } = await outline(user, photo);
    const cropped = await edit(user, photo, { kind: "crop", object: "red subject", path: outlinePath, bbox, aspect });
    expect(cropped.editKind).toBe("crop");
    expect(Math.abs(cropped.width - cropped.height * ratio)).toBeLessThanOrEqual(1);
    expect(cropped.width).toBeLessThanOrEqual(W);
    expect(cropped.height).toBeLessThanOrEqual(H);
    // The whole subject is in the crop: as many red pixels as in the source (JPEG may soften its rim).
    const result = await pixelsOf(user, cropped, 3);
    const red = (data: Buffer) => {
      let n = 0;
      for (let i = 0; i < data.length; i += 3) if (data[i]! > 160 && data[i + 1]! < 90) n++;
      return n;
    };
    expect(red(result.data)).toBeGreaterThan(red(source.raw) * 0.97);
    if (aspect !== "9:16") expect(cropped.width * cropped.height).toBeLessThan(W * H); // a crop, not the photo
  });

  it("writes nothing for a bad outline, from Moondream or sent back, and says what is wrong", async () => {
    const filesBefore = filesUnder(dataDir);
    for (const [key, message] of [
      ["segment-empty", /^Moondream found no outline of "red subject" in this photo/],
      ["segment-outside", /^Moondream's outline of "red subject" could not be used \(the outline goes outside its box \(1\.6 is not within 0–1\)\)/],
      ["fail-500", /^Moondream is unavailable right now \(HTTP 500\)/],
    ] as const) {
      const user = await signUpUser({ baseUrl: stack.url });
      expect((await user.client.post("/api/moondream/api-key", { apiKey: `${key}-${user.id.slice(0, 8)}` })).status).toBe(200);
      const photo = await savePhoto(user);
      const response = await user.client.post(`/api/photos/${photo.id}/segment`, { object: "red subject" });
      expect(response.status, key).toBe(502);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect((await response.json()).detail).toMatch(message);
      expect(((await (await user.client.get("/api/photos")).json()) as Photo[]).map((p) => p.id)).toEqual([photo.id]);
    }
    const user = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(user);
    const bbox = { x_min: 0.3, y_min: 0.25, x_max: 0.6, y_max: 0.75 };
    const afterPhotos = filesUnder(dataDir);
    for (const [body, field] of [
      [{ kind: "cutout", object: "x", path: "M 0 0 L 2 0 L 1 1 Z", bbox }, "path"],
      [{ kind: "cutout", object: "x", path: "M 0.5 0.5", bbox }, "path"],
      [{ kind: "blur", object: "x", path: FAKE_OUTLINE, bbox: { ...bbox, x_max: 0.2 } }, "bbox"],
      [{ kind: "crop", object: "x", path: FAKE_OUTLINE, bbox }, "aspect"],
    ] as const) {
      const response = await user.client.post(`/api/photos/${photo.id}/edits`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await response.json()).errors)).toEqual([field]);
    }
    expect(((await (await user.client.get("/api/photos")).json()) as Photo[]).map((p) => p.id)).toEqual([photo.id]);
    // The only files written are the test's own four photos (an image and a thumbnail each), none for an edit.
    expect(afterPhotos - filesBefore).toBe(4 * 2);
    expect(filesUnder(dataDir)).toBe(afterPhotos);
  });

  it("answers 404 for another user's photo, without asking Moondream", async () => {
    const owner = await signUpUser({ baseUrl: stack.url });
    const intruder = await signUpUser({ baseUrl: stack.url });
    const photo = await savePhoto(owner);
    const calls = stack.fake.calls.length;
    expect((await intruder.client.post(`/api/photos/${photo.id}/segment`, { object: "red subject" })).status).toBe(404);
    const { bbox } = { bbox: { x_min: 0.3, y_min: 0.25, x_max: 0.6, y_max: 0.75 } };
    expect((await intruder.client.post(`/api/photos/${photo.id}/edits`, { kind: "cutout", object: "x", path: FAKE_OUTLINE, bbox })).status).toBe(404);
    expect(stack.fake.calls.length).toBe(calls);
    expect(((await (await owner.client.get("/api/photos")).json()) as Photo[]).map((p) => p.id)).toEqual([photo.id]);
  });

  it("names a Moondream Station without segmentation (501) and remembers it, so the studio can say so first", async () => {
    const user = await signUpUser({ baseUrl: station.url });
    const photo = await savePhoto(user);
    expect((await (await user.client.get("/api/moondream/capabilities")).json()).segmentation).toBe("unknown");
    const calls = stack.fake.calls.filter((c) => c.path === "/segment").length;
    for (let i = 0; i < 2; i++) {
      const response = await user.client.post(`/api/photos/${photo.id}/segment`, { object: "red subject" });
      expect(response.status).toBe(501);
      expect(await response.json()).toMatchObject({ type: VISION_PROBLEM.segmentationUnsupported, detail: SEGMENTATION_UNSUPPORTED });
    }
    // Asked once; the second answer came from memory.
    expect(stack.fake.calls.filter((c) => c.path === "/segment").length - calls).toBe(1);
    expect((await (await user.client.get("/api/moondream/capabilities")).json()).segmentation).toBe("unsupported");
    expect((await (await user.client.get("/api/moondream/usage")).json()).totals).toEqual([]);
  });
});
