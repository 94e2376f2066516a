// BLOB_STORE and the S3_* variables: a half-configured bucket stops start-up naming each missing variable.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";

const base = { ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"), SESSION_SECRET: "x" };
const bucket = { S3_REGION: "eu-west-1", S3_BUCKET: "framewise", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };

describe("blob store configuration", () => {
  it("defaults to the filesystem with no bucket", () => {
    const config = loadConfig(base);
    expect(config.blobStore).toBe("fs");
    expect(config.s3).toBeUndefined();
  });

  it("names every variable BLOB_STORE=s3 is missing", () => {
    expect(() => loadConfig({ ...base, BLOB_STORE: "s3", S3_BUCKET: "framewise" })).toThrow(
      /Invalid configuration:\n {2}S3_REGION: required with BLOB_STORE=s3\n {2}S3_ACCESS_KEY_ID: required with BLOB_STORE=s3\n {2}S3_SECRET_ACCESS_KEY: required with BLOB_STORE=s3$/,
    );
    expect(() => loadConfig({ ...base, S3_BUCKET: "framewise" })).toThrow(/S3_REGION: required once any S3_ variable is set/);
    expect(() => loadConfig({ ...base, BLOB_STORE: "minio" })).toThrow(/BLOB_STORE: BLOB_STORE must be "fs" or "s3"/);
    expect(() => loadConfig({ ...base, ...bucket, S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT: S3_ENDPOINT must be an http\(s\) URL/);
  });

  it("reads a complete bucket, path style only when asked", () => {
    const config = loadConfig({ ...base, ...bucket, BLOB_STORE: "s3", S3_ENDPOINT: "http://127.0.0.1:9000" });
    expect(config.blobStore).toBe("s3");
    expect(config.s3).toEqual({ endpoint: "http://127.0.0.1:9000", region: "eu-west-1", bucket: "framewise", accessKeyId: "id", secretAccessKey: "secret", forcePathStyle: false });
    expect(loadConfig({ ...base, ...bucket, S3_FORCE_PATH_STYLE: "true" }).s3).toMatchObject({ endpoint: undefined, forcePathStyle: true });
  });
});
