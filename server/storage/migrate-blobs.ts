// Copies blobs from one store to another (`npm run blobs -- migrate fs s3`), a few at a time: only the keys given, skipping those
// the target already holds with the same SHA-256 (so an interrupted run resumes where it stopped), verifying
// every copy by reading it back; the source is never changed.
import { createHash } from "node:crypto";
import type { BlobStore } from "./blob-store";

export type BlobOutcome = "copied" | "skipped" | "missing" | "failed";

export interface MigrationSummary {
  total: number;
  copied: number;
  /** Already in the target with the same checksum. */
  skipped: number;
  /** Referenced by a row but absent from the source. */
  missing: number;
  /** Could not be written, or read back with another checksum. */
  failed: number;
  bytesCopied: number;
}

export interface BlobProgress {
  index: number;
  total: number;
  key: string;
  outcome: BlobOutcome;
  bytes: number;
  error?: string;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function copyOne(from: BlobStore, to: BlobStore, key: string): Promise<{ outcome: BlobOutcome; bytes: number; error?: string }> {
  const bytes = await from.get(key);
  if (!bytes) return { outcome: "missing", bytes: 0 };
  const checksum = sha256(bytes);
  if ((await to.sha256(key)) === checksum) return { outcome: "skipped", bytes: 0 };
  await to.put(key, bytes);
  // Read back what the target now serves, not what it says it stored.
  const written = await to.get(key);
  if (!written || sha256(written) !== checksum) return { outcome: "failed", bytes: 0, error: "the copy read back with a different SHA-256" };
  return { outcome: "copied", bytes: bytes.byteLength };
}

/** Blobs copied at once: network round trips overlap, while memory stays at a few images. */
const CONCURRENCY = 8;

export async function migrateBlobs(from: BlobStore, to: BlobStore, keys: string[], onProgress: (progress: BlobProgress) => void): Promise<MigrationSummary> {
  const summary: MigrationSummary = { total: keys.length, copied: 0, skipped: 0, missing: 0, failed: 0, bytesCopied: 0 };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      let result: { outcome: BlobOutcome; bytes: number; error?: string };
      try {
        result = await copyOne(from, to, key);
      } catch (error) {
        const cause = (error as Error).cause;
        result = { outcome: "failed", bytes: 0, error: `${(error as Error).message}${cause instanceof Error ? ` (${cause.name}: ${cause.message})` : ""}` };
      }
      summary[result.outcome]++;
      summary.bytesCopied += result.bytes;
      onProgress({ index: ++done, total: keys.length, key, ...result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, keys.length) }, worker));
  return summary;
}
