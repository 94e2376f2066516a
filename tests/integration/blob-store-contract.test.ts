// Both blob stores keep the same contract (put/get/stream/exists/sha256/delete/deletePrefix/scan, a missing key),
// the S3 one against a real S3-protocol server on loopback; and the orphan sweeper works the same on a bucket.
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type DB } from "#db/index";
import type { BlobStore } from "#server/storage/blob-store";
import { FileBlobStore } from "#server/storage/file-blob-store";
import { sweepOrphanBlobs } from "#server/storage/orphan-sweeper";
import { S3BlobStore } from "#server/storage/s3-blob-store";
import { signUpUser } from "../support/client";
import { noisyJpegBytes } from "../support/images";
import { startTestS3, type TestS3 } from "../support/s3";
import { freePort, tempDir } from "../support/stack";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.stop();
});

async function readAll(stream: NodeJS.ReadableStream | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(store: BlobStore, before: Date): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of store.scan(before)) keys.push(entry.key);
  return keys.sort();
}

const stores: Array<[string, () => BlobStore]> = [
  ["filesystem", () => new FileBlobStore(tempDir("contract"))],
  ["S3", () => s3.store],
];

describe.each(stores)("the %s blob store", (_name, open) => {
  it("gives back exactly what was put, whole or as a stream, with its SHA-256", async () => {
    const store = open();
    const key = `users/${randomUUID()}/photos/${randomUUID()}/original.jpg`;
    const bytes = await noisyJpegBytes(64, 48);
    await store.put(key, bytes);
    expect(await store.get(key)).toEqual(bytes);
    expect(await readAll(await store.stream(key))).toEqual(bytes);
    expect(await store.exists(key)).toBe(true);
    expect(await store.sha256(key)).toBe(createHash("sha256").update(bytes).digest("hex"));

    await store.put(key, Buffer.from("replaced")); // a second put replaces the blob whole
    expect((await store.get(key))?.toString()).toBe("replaced");
    expect(await store.sha256(key)).toBe(createHash("sha256").update("replaced").digest("hex"));
  });

  it("answers a missing key with null and false, and deleting it is no error", async () => {
    const store = open();
    const key = `users/${randomUUID()}/photos/${randomUUID()}/thumbnail.jpg`;
    expect(await store.get(key)).toBeNull();
    expect(await store.stream(key)).toBeNull();
    expect(await store.exists(key)).toBe(false);
    expect(await store.sha256(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
    await store.put(key, Buffer.from("x"));
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  it("deletes by prefix only what is under the prefix, and refuses keys that escape", async () => {
    const store = open();
    const user = randomUUID();
    const mine = [`users/${user}/photos/a/original.jpg`, `users/${user}/cameras/b/thumbnail-1.jpg`];
    const neighbour = `users/${user}x/photos/a/original.jpg`; // shares the prefix's characters, not its folder
    for (const key of [...mine, neighbour]) await store.put(key, Buffer.from(key));
    await store.deletePrefix(`users/${user}/`);
    for (const key of mine) expect(await store.exists(key)).toBe(false);
    expect(await store.exists(neighbour)).toBe(true);
    await expect(store.put(`users/${user}/../../escape.jpg`, Buffer.from("x"))).rejects.toThrow(/Unsafe blob key/);
  });

  it("lists for the sweeper only blobs written before the given time", async () => {
    const store = open();
    const user = randomUUID();
    const key = `users/${user}/photos/${randomUUID()}/original.jpg`;
    await store.put(key, Buffer.from("old enough?"));
    expect(await keysOf(store, new Date(Date.now() + 3600_000))).toContain(key);
    expect(await keysOf(store, new Date(Date.now() - 3600_000))).not.toContain(key); // young: an upload in flight
  });
});

describe("the S3 blob store", () => {
  it("lists only keys under users/ and detector-models/ for the sweeper, so a shared bucket's other objects are safe", async () => {
    const model = `detector-models/${randomUUID()}.onnx`;
    await s3.store.put("backups/keep-me.txt", Buffer.from("not ours"));
    await s3.store.put(model, Buffer.from("an administrator's model"));
    const listed = await keysOf(s3.store, new Date(Date.now() + 3600_000));
    expect(listed).not.toContain("backups/keep-me.txt");
    expect(listed).toContain(model);
    await s3.store.delete(model);
  });

  it("answers 503 (not a bare error) when the service is not reachable", async () => {
    const closed = new S3BlobStore({ ...s3.settings, endpoint: `http://127.0.0.1:${await freePort()}` });
    await expect(closed.put("users/x/photos/y/original.jpg", Buffer.from("x"))).rejects.toMatchObject({ status: 503 });
    await expect(closed.get("users/x/photos/y/original.jpg")).rejects.toMatchObject({ status: 503 });
  });
});

describe("sweepOrphanBlobs on a bucket", () => {
  let db: DB;
  beforeAll(() => {
    db = createDb(inject("databaseUrl"), 1);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it("deletes old blobs no row refers to and keeps referenced and young ones", async () => {
    const user = await signUpUser({ baseUrl: inject("baseUrl") });
    const jpeg = await noisyJpegBytes(64, 48);
    const created = await user.client.post("/api/photos", { imageData: `data:image/jpeg;base64,${jpeg.toString("base64")}`, captureMode: "single" });
    const photo = (await created.json()) as { id: string };
    const row = await db.selectFrom("photos").select(["image_key", "thumbnail_key"]).where("id", "=", photo.id).executeTakeFirstOrThrow();
    const orphan = `users/${user.id}/photos/${randomUUID()}/original.jpg`;
    for (const key of [row.image_key, row.thumbnail_key, orphan]) await s3.store.put(key, Buffer.from(key));

    // Within the grace period nothing is touched: the orphan could be an upload whose row is about to commit.
    const young = await sweepOrphanBlobs(db, s3.store, { graceMs: 3600_000 });
    expect(young.orphans).toBe(0);
    expect(await s3.store.exists(orphan)).toBe(true);

    const later = await sweepOrphanBlobs(db, s3.store, { graceMs: 3600_000, now: Date.now() + 2 * 3600_000 });
    expect(later.orphans).toBeGreaterThanOrEqual(1);
    expect(later.temporaries).toBe(0);
    expect(await s3.store.exists(orphan)).toBe(false);
    expect(await s3.store.exists(row.image_key)).toBe(true);
    expect(await s3.store.exists(row.thumbnail_key)).toBe(true);
  });
});
