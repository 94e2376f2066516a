// WEB_CONCURRENCY: a count of worker processes, or "auto" for one per core; the camera relay's address; anything else stops the start with its name.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

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
