// The blob store a test writes to from its own process: opened as the composition root opens the app's
// (BLOB_STORE, DATA_DIR), once the test has set its environment.
import type { BlobStore } from "#server/storage/blob-store";

export async function openTestBlobStore(): Promise<BlobStore> {
  const { openBlobStore } = await import("#server/storage/blob-store");
  const { config } = await import("#server/config");
  return openBlobStore(config().blobStore);
}
