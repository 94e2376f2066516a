// Blob store on any S3-compatible service (AWS S3, MinIO, Ceph, R2, …). A PutObject is atomic — the object
// appears whole or not at all — so there are no temporaries to sweep; the orphan sweeper lists by prefix and age.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
// Types only: the SDK (~300 ms and ~20 MB to load) is imported on first use, so BLOB_STORE=fs never pays for it.
import type * as Sdk from "@aws-sdk/client-s3";
import { ProblemError } from "../errors";
import { assertSafeBlobKey, sha256Of, type BlobStore } from "./blob";

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * Every blob key starts with one of these (blobKeys: a user's blobs, the deployment's detector models), and only keys
 * under them are listed for the sweeper: a bucket shared with anything else never has that anything swept as an orphan.
 */
const SCANNED_PREFIXES = ["users/", "detector-models/"];
/** The SHA-256 the app computed when writing, kept as object metadata: a resumed migration compares it with a HEAD. */
const SHA256_META = "sha256";
const DELETE_BATCH = 1000; // DeleteObjects' limit

function isMissing(error: unknown): boolean {
  const e = error as Partial<Sdk.S3ServiceException>;
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
}

/** An unreachable or refusing service is the operator's to fix: a 503 saying so, never a bare 500 to the user. */
function unavailable(error: unknown): never {
  if (error instanceof ProblemError) throw error;
  const problem = new ProblemError(503, "The image store is not available right now; nothing was changed. Try again shortly.");
  problem.cause = error; // for the log and the blobs command, not the browser
  throw problem;
}

export class S3BlobStore implements BlobStore {
  private connection: Promise<{ sdk: typeof Sdk; client: Sdk.S3Client }> | undefined;

  constructor(private readonly settings: S3Settings) {}

  private get bucket(): string {
    return this.settings.bucket;
  }

  private connect() {
    const settings = this.settings;
    this.connection ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: settings.endpoint,
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
        // The SDK's default CRC32 trailers (since 3.729) are not understood by every S3-compatible service; integrity
        // is checked with Content-MD5 on every write instead, which S3 services verify.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        // An unreachable endpoint fails a request in seconds instead of holding it (and its upload) for minutes.
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
        maxAttempts: 3,
      }),
    }));
    return this.connection;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    assertSafeBlobKey(key);
    const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const { sdk, client } = await this.connect();
    await client
      .send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: body.byteLength,
          // The service refuses the write if the bytes it received do not hash to this.
          ContentMD5: createHash("md5").update(body).digest("base64"),
          Metadata: { [SHA256_META]: createHash("sha256").update(body).digest("hex") },
        }),
      )
      .catch(unavailable);
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.stream(key);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer);
    } catch (error) {
      unavailable(error);
    }
    return Buffer.concat(chunks);
  }

  async stream(key: string): Promise<Readable | null> {
    assertSafeBlobKey(key);
    const { sdk, client } = await this.connect();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body as Readable; // in Node, the SDK's body is the response stream itself
    } catch (error) {
      if (isMissing(error)) return null;
      unavailable(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async sha256(key: string): Promise<string | null> {
    const head = await this.head(key);
    if (!head) return null;
    const stored = head.Metadata?.[SHA256_META];
    if (stored && /^[0-9a-f]{64}$/.test(stored)) return stored;
    // Written by something else (another tool's upload): hash the bytes themselves.
    const stream = await this.stream(key);
    return stream ? sha256Of(stream).catch(unavailable) : null;
  }

  async delete(key: string): Promise<void> {
    assertSafeBlobKey(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(unavailable); // no error when absent
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeBlobKey(prefix);
    const { sdk, client } = await this.connect();
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const objects = batch.map((Key) => ({ Key }));
      batch = [];
      await client.send(new sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } })).catch(unavailable);
    };
    for await (const object of this.list(prefix)) {
      batch.push(object.key);
      if (batch.length >= DELETE_BATCH) await flush();
    }
    await flush();
  }

  async *scan(before: Date): AsyncIterable<{ key: string; temporary: boolean }> {
    for (const prefix of SCANNED_PREFIXES) {
      for await (const object of this.list(prefix)) {
        if (object.modified < before) yield { key: object.key, temporary: false };
      }
    }
  }

  private async head(key: string) {
    assertSafeBlobKey(key);
    const { sdk, client } = await this.connect();
    try {
      return await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return null;
      unavailable(error);
    }
  }

  private async *list(prefix: string): AsyncIterable<{ key: string; modified: Date }> {
    const { sdk, client } = await this.connect();
    let token: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })).catch(unavailable);
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, modified: object.LastModified ?? new Date() /* unknown age: never swept */ };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
