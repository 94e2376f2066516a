// The app with BLOB_STORE=s3 against a real S3-protocol server on loopback: photos, count snapshots, camera
// pictures and LUTs end to end (bytes in the bucket, none on disk, images streamed with the app's auth and ETag),
// and a SIGKILL between blobs and rows: no row without its blobs, orphans swept at the next start.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type DB } from "#db/index";
import { filesUnder } from "../faults/blob-audit";
import { Client, signUpUser, type TestUser } from "../support/client";
import { dataUrl, jpegDataUrl, noisyJpegBytes } from "../support/images";
import { startTestS3, type TestS3 } from "../support/s3";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

const CUBE = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n";

let s3: TestS3;
let db: DB;
beforeAll(async () => {
  s3 = await startTestS3();
  db = createDb(inject("databaseUrl"), 1);
});
afterAll(async () => {
  await db?.destroy();
  await s3?.stop();
});

async function bucketKeysOf(userId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of s3.store.scan(new Date(Date.now() + 3600_000))) if (key.startsWith(`users/${userId}/`)) keys.push(key);
  return keys.sort();
}

describe("the app on an S3 bucket", () => {
  let stack: VisionStack;
  let dataDir: string;
  let user: TestUser;
  beforeAll(async () => {
    dataDir = tempDir("s3-app");
    stack = await startVisionStack({ ...s3.env, DATA_DIR: dataDir });
    user = await signUpUser({ baseUrl: stack.url });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("creates, lists, serves and deletes a photo with its bytes in the bucket", async () => {
    const jpeg = await noisyJpegBytes(320, 240);
    const created = await user.client.post("/api/photos", { imageData: dataUrl(jpeg), captureMode: "single" });
    expect(created.status).toBe(201);
    const photo = (await created.json()) as { id: string };
    const list = (await (await user.client.get("/api/photos")).json()) as Array<{ id: string }>;
    expect(list.map((p) => p.id)).toContain(photo.id);

    const row = await db.selectFrom("photos").select(["image_key", "thumbnail_key"]).where("id", "=", photo.id).executeTakeFirstOrThrow();
    expect(await bucketKeysOf(user.id)).toEqual([row.image_key, row.thumbnail_key].sort());
    expect(filesUnder(path.join(dataDir, "blobs"))).toEqual([]); // nothing went to the local disk

    const image = await user.client.get(`/api/photos/${photo.id}/image`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(await s3.store.get(row.image_key));
    const etag = image.headers.get("etag")!;
    expect((await user.client.get(`/api/photos/${photo.id}/image`, { "if-none-match": etag })).status).toBe(304);
    expect((await user.client.get(`/api/photos/${photo.id}/thumbnail`)).status).toBe(200);
    // Someone else's session gets nothing: every image request passes the app's own check.
    const stranger = await signUpUser({ baseUrl: stack.url });
    expect((await stranger.client.get(`/api/photos/${photo.id}/image`)).status).toBe(404);

    expect((await user.client.request("DELETE", `/api/photos/${photo.id}`)).status).toBe(204);
    expect(await bucketKeysOf(user.id)).toEqual([]);
    expect((await user.client.get(`/api/photos/${photo.id}/image`)).status).toBe(404);
  });

  it("stores a count snapshot in the bucket and removes it with its session", async () => {
    const session = (await (await user.client.post("/api/people-count/sessions", { cameraName: "Hall" })).json()) as { id: string };
    const counted = await user.client.post("/api/people-count/count", { imageData: await markerFrame(), sessionId: session.id });
    expect(counted.status).toBe(200);
    const { snapshot } = (await counted.json()) as { snapshot: { id: string; thumbnailUrl: string } };
    const row = await db.selectFrom("count_snapshots").select(["image_key", "thumbnail_key"]).where("id", "=", snapshot.id).executeTakeFirstOrThrow();
    expect(await bucketKeysOf(user.id)).toEqual([row.image_key, row.thumbnail_key].sort());
    const thumbnail = await user.client.get(snapshot.thumbnailUrl);
    expect(thumbnail.status).toBe(200);
    expect(Buffer.from(await thumbnail.arrayBuffer())).toEqual(await s3.store.get(row.thumbnail_key));

    expect((await user.client.request("DELETE", `/api/people-count/sessions/${session.id}`)).status).toBe(204);
    expect(await bucketKeysOf(user.id)).toEqual([]);
  });

  it("keeps a camera's picture in the bucket, replaces it and deletes it with the camera", async () => {
    const created = await user.client.post("/api/cameras", { name: "Desk", model: "Static Photo", status: "online", thumbnail: await jpegDataUrl(640, 360) });
    expect(created.status).toBe(201);
    const camera = (await created.json()) as { id: string; thumbnailUrl: string; imageUrl: string };
    const first = await bucketKeysOf(user.id);
    expect(first).toHaveLength(2);
    const picture = await user.client.get(camera.imageUrl);
    expect(picture.status).toBe(200);
    const row = await db.selectFrom("cameras").select(["image_key", "thumbnail_key"]).where("id", "=", camera.id).executeTakeFirstOrThrow();
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(await s3.store.get(row.image_key!));

    const updated = await user.client.request("PUT", `/api/cameras/${camera.id}`, { json: { thumbnail: await jpegDataUrl(320, 180) } });
    expect(updated.status).toBe(200);
    const second = await bucketKeysOf(user.id);
    expect(second).toHaveLength(2); // the new picture and its thumbnail; the old ones are gone
    expect(second).not.toEqual(first);

    expect((await user.client.request("DELETE", `/api/cameras/${camera.id}`)).status).toBe(204);
    expect(await bucketKeysOf(user.id)).toEqual([]);
  });

  it("removes every object of an account that is deleted", async () => {
    const leaving = await signUpUser({ baseUrl: stack.url });
    expect((await leaving.client.post("/api/photos", { imageData: dataUrl(await noisyJpegBytes(64, 48)), captureMode: "single" })).status).toBe(201);
    expect((await leaving.client.post("/api/cameras", { name: "Door", thumbnail: await jpegDataUrl(64, 48) })).status).toBe(201);
    expect(await bucketKeysOf(leaving.id)).toHaveLength(4);
    expect((await leaving.client.request("DELETE", "/api/auth/me")).status).toBe(204);
    expect(await bucketKeysOf(leaving.id)).toEqual([]);
  });

  it("uploads, reads and deletes a LUT (kept in the database, so unaffected by the store)", async () => {
    const created = await user.client.post("/api/luts", { name: "Tiny", lutData: CUBE });
    expect(created.status).toBe(201);
    const lut = (await created.json()) as { id: string };
    expect(await (await user.client.get(`/api/luts/${lut.id}`)).json()).toMatchObject({ name: "Tiny", size: 2, lutData: CUBE });
    expect((await user.client.request("DELETE", `/api/luts/${lut.id}`)).status).toBe(204);
    expect((await user.client.get(`/api/luts/${lut.id}`)).status).toBe(404);
  });
});

describe("the app when S3 cannot be reached", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });

  it("refuses an upload with 503 and no row; revalidations still answer 304; a deletion succeeds, leaving the blobs to the sweep", async () => {
    const shared = { ...s3.env, DATABASE_URL: inject("databaseUrl"), DATABASE_POOL_SIZE: "3", DATA_DIR: tempDir("s3-down") };
    // Two servers of one deployment: one reaches the bucket, the other has lost it.
    const [up, down] = await Promise.all([startApp(shared), startApp({ ...shared, S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` })]);
    apps.push(up!, down!);
    const user = await signUpUser({ baseUrl: up!.url });
    const photo = (await (await user.client.post("/api/photos", { imageData: dataUrl(await noisyJpegBytes(64, 48)), captureMode: "single" })).json()) as { id: string };
    const onDown = new Client(down!.url);
    expect((await onDown.post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(200);

    const response = await onDown.post("/api/photos", { imageData: dataUrl(await noisyJpegBytes(64, 48)), captureMode: "single" });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(((await response.json()) as { detail: string }).detail).toMatch(/image store is not available/);
    expect((await db.selectFrom("photos").select("id").where("user_id", "=", user.id).execute()).map((r) => r.id)).toEqual([photo.id]);

    // A browser revalidating its cached copy is answered from the row's ETag, without the bucket.
    const etag = (await user.client.get(`/api/photos/${photo.id}/image`)).headers.get("etag")!;
    expect((await onDown.get(`/api/photos/${photo.id}/image`, { "if-none-match": etag })).status).toBe(304);
    expect((await onDown.get(`/api/photos/${photo.id}/image`)).status).toBe(503);

    expect((await onDown.request("DELETE", `/api/photos/${photo.id}`)).status).toBe(204);
    expect(await db.selectFrom("photos").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await bucketKeysOf(user.id)).toHaveLength(2); // orphans now: the next sweep removes them
  });
});

describe("a crash between blobs and rows on S3", () => {
  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.stop();
  });

  it("leaves no row without its blobs, and the next start sweeps the orphans", async () => {
    // A fixed port: the restarted app is the same origin, so the sessions (kept in PostgreSQL) still work.
    const env = {
      ...s3.env,
      DATABASE_URL: inject("databaseUrl"),
      DATABASE_POOL_SIZE: "3",
      DATA_DIR: tempDir("s3-crash"),
      BLOB_ORPHAN_GRACE_SECONDS: "1",
      PORT: String(await freePort()),
    };
    app = await startApp(env);
    const baseUrl = app.url;
    const users = await Promise.all(Array.from({ length: 6 }, () => signUpUser({ baseUrl })));
    const body = { imageData: dataUrl(await noisyJpegBytes(640, 480)), captureMode: "single" };
    let acked = 0;
    let killed = false;
    const uploads = users.map(async (u) => {
      while (!killed) {
        const response = await u.client.post("/api/photos", body).catch(() => null); // cut off by the kill
        if (response?.status === 201) acked++;
      }
    });
    await expect.poll(() => acked, { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
    killed = true;
    app.process.kill("SIGKILL");
    await app.stop();
    await Promise.all(uploads);

    // What a kill after the blob writes and before the commit leaves, planted so the sweep surely has one to find.
    const planted = `users/${users[0]!.id}/photos/${randomUUID()}/original.jpg`;
    await s3.store.put(planted, Buffer.from("orphan"));
    const plantedAt = Date.now();

    const ids = users.map((u) => u.id);
    const rows = await db.selectFrom("photos").select(["image_key", "thumbnail_key"]).where("user_id", "in", ids).execute();
    expect(rows.length).toBeGreaterThanOrEqual(6);
    const referenced = rows.flatMap((r) => [r.image_key, r.thumbnail_key]);
    for (const key of referenced) expect(await s3.store.exists(key), key).toBe(true);

    // The orphans must be older than the grace period (1 s; S3 keeps whole seconds) when the restarted app looks.
    await expect.poll(() => Date.now() - plantedAt, { timeout: 5_000 }).toBeGreaterThan(2_000);
    app = await startApp(env);
    await expect.poll(() => app!.logs.some((line) => line.includes('"orphan blob sweep"')), { timeout: 30_000 }).toBe(true);
    const remaining = (await Promise.all(ids.map(bucketKeysOf))).flat().sort();
    expect(remaining).toEqual([...referenced].sort()); // every orphan gone, every row's blob kept
    const image = await users[0]!.client.get(`/api/photos/${(await db.selectFrom("photos").select("id").where("user_id", "=", users[0]!.id).executeTakeFirstOrThrow()).id}/image`);
    expect(image.status).toBe(200);
  }, 120_000);
});
