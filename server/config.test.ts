// WEB_CONCURRENCY: a count of worker processes, or "auto" for one per core; anything else stops the start with its name.
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
