// Where image bytes live. Rows keep keys; the bytes go to a blob store (filesystem by default; the
// interface is what an S3-compatible store would implement too).
import { config } from "../config";
import { FileBlobStore } from "./file-blob-store";

export interface BlobStore {
  /** Stores the bytes under `key` atomically: readers see the whole blob or none. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** The bytes, or null when there is no such blob. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the blob; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix` (e.g. all of one user's). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Every blob last written before `before`, and abandoned partial writes (`temporary`: a crash between
   * writing and renaming), for the orphan sweeper. Keys of temporaries can be passed to delete().
   */
  scan(before: Date): AsyncIterable<{ key: string; temporary: boolean }>;
}

let store: BlobStore | undefined;

export function blobStore(): BlobStore {
  store ??= new FileBlobStore(config().blobDir);
  return store;
}

/**
 * Stores several blobs that belong together (an image and its thumbnail): all of them, or — when one write
 * fails, e.g. a full disk — none, waiting for the others to settle first so none is left behind.
 */
export async function putAll(blobs: Array<[key: string, data: Uint8Array]>): Promise<void> {
  const results = await Promise.allSettled(blobs.map(([key, data]) => blobStore().put(key, data)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return;
  await Promise.all(
    blobs.map(([key]) =>
      blobStore()
        .delete(key)
        .catch(() => {}),
    ),
  );
  throw failed.reason;
}

/**
 * Blobs first, then the row that points at them, so no row points at a missing blob. If writing the row fails, the
 * blobs go only once the row is known to be absent: a lost connection can hide a commit that happened (otherwise
 * the orphan sweeper removes them later, if there is indeed no row).
 */
export async function putThenRecord<T>(blobs: Array<[key: string, data: Uint8Array]>, record: () => Promise<T>, recorded: () => Promise<boolean>): Promise<T> {
  await putAll(blobs);
  try {
    return await record();
  } catch (error) {
    const exists = await recorded().catch(() => true);
    if (!exists) await Promise.all(blobs.map(([key]) => blobStore().delete(key))).catch(() => {});
    throw error;
  }
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
};
