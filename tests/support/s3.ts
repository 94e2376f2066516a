// A real S3-protocol server (s3rver) on 127.0.0.1 with a random port, holding one empty bucket, and what the
// app and the tests need to use it: the app's S3_* settings and a store that reads the bucket directly.
import { rmSync } from "node:fs";
import S3rver from "s3rver";
import type { S3Settings } from "#server/storage/s3-blob-store";
import { S3BlobStore } from "#server/storage/s3-blob-store";
import { tempDir } from "./stack";

export interface TestS3 {
  settings: S3Settings;
  /** The app's environment for BLOB_STORE=s3 on this server. */
  env: Record<string, string>;
  /** The bucket, read and written directly (not through an app). */
  store: S3BlobStore;
  stop(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }; // the ones s3rver checks signatures with

export async function startTestS3(bucket = "framewise-test"): Promise<TestS3> {
  const directory = tempDir("s3");
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const settings: S3Settings = { endpoint: `http://127.0.0.1:${port}`, region: "us-east-1", bucket, ...CREDENTIALS, forcePathStyle: true };
  return {
    settings,
    env: {
      BLOB_STORE: "s3",
      S3_ENDPOINT: settings.endpoint!,
      S3_REGION: settings.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    store: new S3BlobStore(settings),
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
