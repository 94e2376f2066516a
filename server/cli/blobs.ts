// `npm run blobs -- migrate fs s3` (or `s3 fs`): copies every blob a row refers to into the other store, resumable
// and verified by SHA-256 (server/storage/migrate-blobs.ts); the source is left as it was.
import { config } from "../config";
import { openBlobStore, type BlobStoreKind } from "../storage/blob-store";
import { migrateBlobs } from "../storage/migrate-blobs";
import { referencedBlobKeys } from "../storage/orphan-sweeper";
import { withDatabase } from "./database";

const USAGE = "Usage: npm run blobs -- migrate fs s3 | migrate s3 fs";
const isKind = (value: string | undefined): value is BlobStoreKind => value === "fs" || value === "s3";

function describe(kind: BlobStoreKind): string {
  if (kind === "fs") return `the filesystem (${config().blobDir})`;
  const s3 = config().s3;
  return s3 ? `S3 bucket "${s3.bucket}"${s3.endpoint ? ` at ${s3.endpoint}` : ""}` : "S3";
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export async function runBlobsCommand(args: string[]): Promise<number> {
  const [command, from, to] = args;
  if (command !== "migrate" || !isKind(from) || !isKind(to) || from === to) {
    console.error(USAGE);
    return 2;
  }
  try {
    const source = openBlobStore(from);
    const target = openBlobStore(to);
    return await withDatabase(async (db) => {
      const keys = await referencedBlobKeys(db);
      console.log(`Copying ${keys.length} referenced blobs from ${describe(from)} to ${describe(to)}.`);
      const summary = await migrateBlobs(source, target, keys, (p) => {
        const detail = p.outcome === "copied" ? ` (${p.bytes} bytes)` : p.error ? `: ${p.error}` : "";
        console.log(`[${p.index}/${p.total}] ${p.outcome} ${p.key}${detail}`);
      });
      console.log(
        `Done: ${summary.total} blobs; ${summary.copied} copied (${megabytes(summary.bytesCopied)}), ${summary.skipped} already there with the same SHA-256, ` +
          `${summary.missing} missing from the source, ${summary.failed} failed. Nothing was deleted from the source.`,
      );
      if (summary.missing || summary.failed) {
        console.error("Some blobs were not copied (see the lines above). Run the command again to retry; copies already made are kept.");
        return 1;
      }
      if (config().blobStore !== to) console.log(`To serve from the copy, set BLOB_STORE=${to} and restart the app.`);
      return 0;
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
