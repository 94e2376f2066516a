// What every blob store is (the filesystem's, S3's) and the checks they share; server/storage/blob-store.ts picks one.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";

export interface BlobStore {
  /** Stores the bytes under `key` atomically: readers see the whole blob or none. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** The bytes, or null when there is no such blob. */
  get(key: string): Promise<Buffer | null>;
  /** The bytes as a stream, or null when there is no such blob. */
  stream(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  /** The SHA-256 (hex) of the stored bytes, or null when there is no such blob: how a migration verifies a copy. */
  sha256(key: string): Promise<string | null>;
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

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** The SHA-256 (hex) of a stream's bytes: how every store checksums a blob it did not write itself. */
export async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Keys are made by blobKeys; anything else (a path escape, a stray character) is a bug, refused by every store alike. */
export function assertSafeBlobKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`Unsafe blob key: ${key}`);
}
