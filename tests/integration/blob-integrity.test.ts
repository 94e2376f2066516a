// Blobs and rows stay consistent: a failed write leaves no partial set of blobs, and blobs no row refers to
// (a crash between writing the blobs and committing the row) are swept once older than the grace period.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type DB } from "#db/index";
import { FileBlobStore } from "#server/storage/file-blob-store";
import { sweepOrphanBlobs } from "#server/storage/orphan-sweeper";
import { signUpUser } from "../support/client";
import { noisyJpegBytes } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { openTestBlobStore } from "../support/blob-store";

const HOUR_AGO = (Date.now() - 3600_000) / 1000;

function plant(root: string, key: string, ageSeconds: number | null) {
  const file = path.join(root, key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "bytes");
  if (ageSeconds !== null) utimesSync(file, Date.now() / 1000 - ageSeconds, Date.now() / 1000 - ageSeconds);
  return file;
}

async function uploadPhoto(baseUrl: string) {
  const user = await signUpUser({ baseUrl });
  const jpeg = await noisyJpegBytes(64, 48);
  const response = await user.client.post("/api/photos", { imageData: `data:image/jpeg;base64,${jpeg.toString("base64")}`, captureMode: "single" });
  expect(response.status).toBe(201);
  return { user, photo: (await response.json()) as { id: string } };
}

describe("putAll", () => {
  it("removes the blobs it wrote when another of the set fails", async () => {
    await useSharedDatabase();
    const { putAll } = await import("#server/storage/blob-store");
    const blobs = await openTestBlobStore();
    const dir = `users/${randomUUID()}/photos/${randomUUID()}`;
    // The second key is refused by the store (as a full disk would refuse the write) after the first was written.
    await expect(
      putAll(blobs, [
        [`${dir}/original.jpg`, Buffer.from("image")],
        [`${dir}/../../escape.jpg`, Buffer.from("thumbnail")],
      ]),
    ).rejects.toThrow();
    expect(existsSync(path.join(inject("dataDir"), "blobs", dir, "original.jpg"))).toBe(false);
  });
});

describe("sweepOrphanBlobs", () => {
  let db: DB;
  beforeAll(() => {
    db = createDb(inject("databaseUrl"), 1);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it("deletes old unreferenced blobs and partial writes, keeps referenced and young ones", async () => {
    const { photo } = await uploadPhoto(inject("baseUrl"));
    const row = await db.selectFrom("photos").select(["image_key", "thumbnail_key", "user_id"]).where("id", "=", photo.id).executeTakeFirstOrThrow();
    const root = tempDir("sweep");
    const store = new FileBlobStore(root);
    const referenced = [plant(root, row.image_key, 3600), plant(root, row.thumbnail_key, 3600)];
    const orphanKey = `users/${row.user_id}/photos/${randomUUID()}/original.jpg`;
    const orphan = plant(root, orphanKey, 3600);
    const temporary = plant(root, `users/${row.user_id}/photos/${randomUUID()}/.tmp-0123456789ab`, 3600);
    const young = plant(root, `users/${row.user_id}/photos/${randomUUID()}/thumbnail.jpg`, null);

    const result = await sweepOrphanBlobs(db, store, { graceMs: 60_000 });

    expect(result).toEqual({ checked: 3, orphans: 1, temporaries: 1 });
    for (const file of referenced) expect(existsSync(file)).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(temporary)).toBe(false);
    expect(existsSync(young)).toBe(true); // an upload in flight: its row may commit any moment
  });
});

describe("the app at start-up", () => {
  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.stop();
  });

  it("sweeps orphan blobs left by a crash and keeps every photo's blobs", async () => {
    const dataDir = tempDir("sweep-app");
    const env = { DATABASE_URL: inject("databaseUrl"), DATABASE_POOL_SIZE: "3", DATA_DIR: dataDir, BLOB_ORPHAN_GRACE_SECONDS: "1" };
    app = await startApp(env);
    const { user, photo } = await uploadPhoto(app.url);
    await app.stop();
    const blobs = path.join(dataDir, "blobs");
    const orphan = plant(blobs, `users/${user.id}/photos/${randomUUID()}/original.jpg`, 60);
    const temporary = plant(blobs, `users/${user.id}/photos/${randomUUID()}/.tmp-aabbccddeeff`, 60);
    // The photo's own blobs are just as old: only the missing row makes a blob an orphan.
    for (const entry of readdirSync(path.join(blobs, "users", user.id, "photos", photo.id))) {
      utimesSync(path.join(blobs, "users", user.id, "photos", photo.id, entry), HOUR_AGO, HOUR_AGO);
    }

    app = await startApp(env);
    await expect.poll(() => app!.logs.some((line) => line.includes('"orphan blob sweep"')), { timeout: 30_000 }).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(temporary)).toBe(false);
    const image = await fetch(`${app.url}/api/photos/${photo.id}/image`, { headers: { cookie: user.client.cookieHeader } });
    expect(image.status).toBe(200);
    const thumbnail = await fetch(`${app.url}/api/photos/${photo.id}/thumbnail`, { headers: { cookie: user.client.cookieHeader } });
    expect(thumbnail.status).toBe(200);
  }, 120_000);
});
