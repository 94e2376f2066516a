// Where image bytes live. Rows keep keys; the bytes go to a blob store: the filesystem by default, or an
// S3-compatible bucket (BLOB_STORE=s3; docs/decisions/0006-s3-blob-store.md).
import { config } from "../config";
import { notFound } from "../errors";
import { logger } from "../logger";
import { FileBlobStore } from "./file-blob-store";
import { S3BlobStore } from "./s3-blob-store";
import type { BlobStore } from "./blob";

export type { BlobStore } from "./blob";

export type BlobStoreKind = "fs" | "s3";

/**
 * A store of the given kind as configured: the composition root opens the one a process serves from (BLOB_STORE),
 * the chores and the CLI their own (the blobs command both kinds at once).
 */
export function openBlobStore(kind: BlobStoreKind): BlobStore {
  if (kind === "fs") return new FileBlobStore(config().blobDir);
  const s3 = config().s3;
  if (!s3) throw new Error("The S3 blob store needs S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT for a service other than AWS).");
  return new S3BlobStore(s3);
}

/**
 * Stores several blobs that belong together (an image and its thumbnail): all of them, or — when one write
 * fails, e.g. a full disk — none, waiting for the others to settle first so none is left behind.
 */
export async function putAll(store: BlobStore, blobs: Array<[key: string, data: Uint8Array]>): Promise<void> {
  const results = await Promise.allSettled(blobs.map(([key, data]) => store.put(key, data)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return;
  await Promise.all(blobs.map(([key]) => store.delete(key).catch(() => {})));
  throw failed.reason;
}

/**
 * Blobs first, then the row that points at them, so no row points at a missing blob. If writing the row fails, the
 * blobs go only once the row is known to be absent: a lost connection can hide a commit that happened (otherwise
 * the orphan sweeper removes them later, if there is indeed no row).
 */
export async function putThenRecord<T>(store: BlobStore, blobs: Array<[key: string, data: Uint8Array]>, record: () => Promise<T>, recorded: () => Promise<boolean>): Promise<T> {
  await putAll(store, blobs);
  try {
    return await record();
  } catch (error) {
    const exists = await recorded().catch(() => true);
    if (!exists) await Promise.all(blobs.map(([key]) => store.delete(key))).catch(() => {});
    throw error;
  }
}

/**
 * Removes blobs whose rows are already gone (deleted, replaced). The deletion has happened, so a store failing now
 * (S3 unreachable) must not turn it into an error: what is left is an orphan the sweeper removes later.
 */
export async function discardBlobs(store: BlobStore, keys: Array<string | null | undefined>): Promise<void> {
  const present = keys.filter((key): key is string => Boolean(key));
  await Promise.all(present.map((key) => store.delete(key))).catch((error: unknown) => logger.warn({ err: error, keys: present.length }, "blobs left for the orphan sweep"));
}

/** discardBlobs for everything under a prefix (a deleted account's or camera's). */
export async function discardBlobPrefix(store: BlobStore, prefix: string): Promise<void> {
  await store.deletePrefix(prefix).catch((error: unknown) => logger.warn({ err: error, prefix }, "blobs left for the orphan sweep"));
}

/**
 * Reads a blob only when called: an image route answers a revalidation (304) from the row's ETag without touching
 * the store, which with S3 saves a GET of the whole image. A missing blob is a 404 naming `what`.
 */
export function blobReader(store: BlobStore, key: string, what: string): () => Promise<Buffer> {
  return async () => {
    const bytes = await store.get(key);
    if (!bytes) throw notFound(what);
    return bytes;
  };
}

/** Keys group a user's blobs under one prefix, so deleting a user can remove them all at once. */
export const blobKeys = {
  userPrefix: (userId: string) => `users/${userId}/`,
  photo: (userId: string, photoId: string, ext: string) => `users/${userId}/photos/${photoId}/original.${ext}`,
  photoThumbnail: (userId: string, photoId: string) => `users/${userId}/photos/${photoId}/thumbnail.jpg`,
  cameraPrefix: (userId: string, cameraId: string) => `users/${userId}/cameras/${cameraId}/`,
  cameraThumbnail: (userId: string, cameraId: string, version: string) => `users/${userId}/cameras/${cameraId}/thumbnail-${version}.jpg`,
  cameraImage: (userId: string, cameraId: string, version: string, ext: string) => `users/${userId}/cameras/${cameraId}/image-${version}.${ext}`,
  snapshot: (userId: string, snapshotId: string, ext: string) => `users/${userId}/snapshots/${snapshotId}/original.${ext}`,
  snapshotThumbnail: (userId: string, snapshotId: string) => `users/${userId}/snapshots/${snapshotId}/thumbnail.jpg`,
  /** The deployment's, not a user's: an administrator's upload outlives the account. */
  detectorModel: (modelId: string) => `detector-models/${modelId}.onnx`,
};
