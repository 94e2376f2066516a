// `npm run blobs -- migrate fs s3` and back, run as the operator runs it (bin/blobs.js) on its own database:
// copies exactly the blobs rows refer to, verified by SHA-256, resumes after a SIGKILL, repairs a wrong copy,
// never touches the source; and the app then serves the same bytes from the other store.
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { filesUnder } from "../faults/blob-audit";
import { Client, signUpUser } from "../support/client";
import { dataUrl, jpegDataUrl, noisyJpegBytes } from "../support/images";
import { startTestS3, type TestS3 } from "../support/s3";
import { ROOT, startApp, tempDir } from "../support/stack";

let s3: TestS3;
let databaseUrl: string;
beforeAll(async () => {
  s3 = await startTestS3();
  // A database of its own: the command copies every blob its rows refer to, and other tests' rows are not ours.
  const url = new URL(inject("databaseUrl"));
  const name = `fw_blobs_${randomUUID().slice(0, 8)}`;
  url.pathname = "/postgres";
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
});
afterAll(async () => {
  await s3?.stop();
});

interface Run {
  code: number | null;
  output: string;
}

/** Runs `node bin/blobs.js migrate …`; with `killAfterFirstCopy`, SIGKILLs it as soon as it reports one copy. */
function runBlobs(env: Record<string, string>, args: string[], options: { killAfterFirstCopy?: boolean } = {}): Promise<Run> {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/blobs.js"), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.killAfterFirstCopy && / copied /.test(output) && child.exitCode === null) child.kill("SIGKILL");
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function referencedKeys(): Promise<string[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<Array<{ key: string }>>`
      select image_key as key from photos union select thumbnail_key from photos
      union select image_key from cameras where image_key is not null union select thumbnail_key from cameras where thumbnail_key is not null`;
    return rows.map((r) => r.key).sort();
  } finally {
    await sql.end();
  }
}

describe("npm run blobs -- migrate", () => {
  it("copies the referenced blobs fs → s3 and s3 → fs, resumably and verified, leaving the source as it was", async () => {
    const fsDir = tempDir("blobs-fs");
    const base = { DATABASE_URL: databaseUrl, DATA_DIR: fsDir, ...s3.env };

    // Some photos and a camera picture, written by the app to the filesystem store.
    let app = await startApp({ ...base, BLOB_STORE: "fs" });
    const user = await signUpUser({ baseUrl: app.url });
    const originals: Buffer[] = [];
    const photoIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      originals.push(await noisyJpegBytes(160, 120)); // more blobs than the command copies at once, so a kill lands mid-run
      const response = await user.client.post("/api/photos", { imageData: dataUrl(originals[i]!), captureMode: "single" });
      expect(response.status).toBe(201);
      photoIds.push(((await response.json()) as { id: string }).id);
    }
    expect((await user.client.post("/api/cameras", { name: "Desk", thumbnail: await jpegDataUrl(320, 180) })).status).toBe(201);
    await app.stop();
    const blobDir = path.join(fsDir, "blobs");
    const orphan = `users/${user.id}/photos/${randomUUID()}/original.jpg`; // no row refers to it: not copied
    mkdirSync(path.dirname(path.join(blobDir, orphan)), { recursive: true });
    writeFileSync(path.join(blobDir, orphan), "orphan");
    const keys = await referencedKeys();
    expect(keys).toHaveLength(22);
    const sourceFiles = filesUnder(blobDir).sort();
    const sourceSums = new Map(keys.map((key) => [key, sha256(readFileSync(path.join(blobDir, key)))]));

    // Interrupted after its first copy…
    const interrupted = await runBlobs(base, ["migrate", "fs", "s3"], { killAfterFirstCopy: true });
    expect(interrupted.code).toBeNull(); // killed
    // …then run again: what is there with the same checksum is skipped, the rest copied.
    const resumed = await runBlobs(base, ["migrate", "fs", "s3"]);
    expect(resumed.output).toMatch(/Copying 22 referenced blobs from the filesystem .* to S3 bucket "framewise-test"/);
    expect(resumed.output).toMatch(/\[22\/22\] (copied|skipped) /);
    const summary = /Done: 22 blobs; (\d+) copied \(.*\), (\d+) already there with the same SHA-256, 0 missing from the source, 0 failed/.exec(resumed.output);
    expect(summary, resumed.output).not.toBeNull();
    expect(Number(summary![2])).toBeGreaterThanOrEqual(1);
    expect(Number(summary![1]) + Number(summary![2])).toBe(22);
    expect(resumed.code).toBe(0);
    for (const key of keys) expect(sha256((await s3.store.get(key))!), key).toBe(sourceSums.get(key));
    expect(await s3.store.exists(orphan)).toBe(false);
    expect(filesUnder(blobDir).sort()).toEqual(sourceFiles); // nothing deleted or added at the source

    // The app now serves the same bytes from the bucket.
    app = await startApp({ ...base, BLOB_STORE: "s3", DATA_DIR: tempDir("blobs-empty") });
    const client = await signInAs(app.url, user.username, user.password);
    const served = await client.get(`/api/photos/${photoIds[0]}/image`);
    expect(served.status).toBe(200);
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sourceSums.get(keys.find((k) => k.includes(`${photoIds[0]}/original`))!));
    await app.stop();

    // And back into an empty directory, where one blob already sits with the wrong bytes: it is copied again.
    const backDir = tempDir("blobs-back");
    const back = { ...base, DATA_DIR: backDir };
    const wrong = path.join(backDir, "blobs", keys[0]!);
    mkdirSync(path.dirname(wrong), { recursive: true });
    writeFileSync(wrong, "not the photo");
    expect((await runBlobs(back, ["migrate", "s3", "fs"], { killAfterFirstCopy: true })).code).toBeNull();
    const home = await runBlobs(back, ["migrate", "s3", "fs"]);
    expect(home.code, home.output).toBe(0);
    expect(home.output).toMatch(/Done: 22 blobs; \d+ copied .* 0 failed/);
    for (const key of keys) expect(sha256(readFileSync(path.join(backDir, "blobs", key))), key).toBe(sourceSums.get(key));
    // A run with everything in place copies nothing.
    expect((await runBlobs(back, ["migrate", "s3", "fs"])).output).toMatch(/Done: 22 blobs; 0 copied \(0\.0 MB\), 22 already there/);
  }, 180_000);

  it("refuses a wrong invocation and names what S3 needs", async () => {
    const usage = await runBlobs({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("blobs-usage") }, ["migrate", "fs", "fs"]);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain("Usage: npm run blobs -- migrate fs s3 | migrate s3 fs");
    const unset = await runBlobs({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("blobs-unset") }, ["migrate", "fs", "s3"]);
    expect(unset.code).toBe(1);
    expect(unset.output).toContain("S3_BUCKET");
  });
});

async function signInAs(baseUrl: string, username: string, password: string) {
  const client = new Client(baseUrl);
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}
