// WEB_CONCURRENCY: a count of worker processes, or "auto" for one per core; the camera relay's address; anything else
// stops the start with its name. The generated secrets in DATA_DIR, made once even by processes starting together.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os, { availableParallelism } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSecrets, loadConfig } from "./config";

const secrets = { SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") };

describe("WEB_CONCURRENCY", () => {
  it("is one process unless set, a count, or one per core for auto", () => {
    expect(loadConfig(secrets).webConcurrency).toBe(1);
    expect(loadConfig({ ...secrets, WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(loadConfig({ ...secrets, WEB_CONCURRENCY: "auto" }).webConcurrency).toBe(availableParallelism());
  });

  it("refuses zero, negatives and words, naming the variable", () => {
    for (const value of ["0", "-2", "two", "1.5"]) {
      expect(() => loadConfig({ ...secrets, WEB_CONCURRENCY: value }), value).toThrow(/WEB_CONCURRENCY: must be a number of worker processes/);
    }
  });
});

describe("LOCAL_VISION_DETECTOR_THREADS", () => {
  it("is one fewer than the cores (at least one) unless set, and refuses what is not a count of threads", () => {
    expect(loadConfig(secrets).localVision.detectorThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ ...secrets, LOCAL_VISION_DETECTOR_THREADS: "3" }).localVision.detectorThreads).toBe(3);
    expect(loadConfig({ ...secrets, LOCAL_VISION_DETECTOR_THREADS: "" }).localVision.detectorThreads).toBe(Math.max(1, availableParallelism() - 1));
    for (const value of ["0", "-1", "1.5", "two", "65"]) {
      expect(() => loadConfig({ ...secrets, LOCAL_VISION_DETECTOR_THREADS: value }), value).toThrow(/LOCAL_VISION_DETECTOR_THREADS/);
    }
  });
});

describe("CAMERA_RELAY_HOST and CAMERA_RELAY_PORT", () => {
  it("listen on loopback at a free port unless set", () => {
    expect(loadConfig(secrets).ffmpeg).toMatchObject({ relayHost: "127.0.0.1", relayPort: 0 });
    expect(loadConfig({ ...secrets, CAMERA_RELAY_HOST: "::1", CAMERA_RELAY_PORT: "7400" }).ffmpeg).toMatchObject({ relayHost: "::1", relayPort: 7400 });
  });

  it("refuse an address other processes could not reach it by, and one fixed port for several workers", () => {
    for (const host of ["0.0.0.0", "::", "app.internal", "localhost"]) {
      expect(() => loadConfig({ ...secrets, CAMERA_RELAY_HOST: host }), host).toThrow(/CAMERA_RELAY_HOST/);
    }
    expect(() => loadConfig({ ...secrets, CAMERA_RELAY_PORT: "7400", WEB_CONCURRENCY: "2" })).toThrow(/CAMERA_RELAY_PORT/);
    expect(loadConfig({ ...secrets, WEB_CONCURRENCY: "2" }).ffmpeg.relayPort).toBe(0);
  });
});

describe("the secrets kept in DATA_DIR", () => {
  it("are made once and read back; a process that loses the race to make them uses the winner's", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fw-secrets-"));
    try {
      const first = loadConfig({ DATA_DIR: dir });
      expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first.sessionSecret);
      // Another process looked, found none, and made its own after this one wrote the file: it keeps this one's.
      const file = path.join(dir, "secrets.json");
      const stored = JSON.parse(readFileSync(file, "utf8")) as { sessionSecret: string };
      expect(createSecrets(file).sessionSecret).toBe(stored.sessionSecret);
      expect(readdirSync(dir)).toEqual(["secrets.json"]); // no file of the loser's left behind
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a secrets file it cannot read rather than making new secrets over it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fw-secrets-"));
    try {
      writeFileSync(path.join(dir, "secrets.json"), "{ half");
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/secrets\.json is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
