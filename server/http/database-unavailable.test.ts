// A database that went away (restart, failover, network) answers 503 with Retry-After, never a 500: the errors
// postgres.js and the server raise while PostgreSQL restarts (seen by `npm run test:faults`).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";

let errorToProblem: (error: unknown) => Response;

beforeAll(async () => {
  // Set before the config is first read, so no secrets file is written and nothing is logged.
  process.env.LOG_LEVEL = "silent";
  process.env.SESSION_SECRET ??= "unit-test-session-secret";
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  ({ errorToProblem } = await import("./api"));
});

const withCode = (code: string, message = `failure ${code}`) => Object.assign(new Error(message), { code });

describe("errorToProblem for database failures", () => {
  it.each([
    ["ECONNREFUSED", "nothing listens (stopped)"],
    ["ECONNRESET", "the server reset the socket mid-query (shutting down)"],
    ["CONNECTION_CLOSED", "postgres.js: the socket closed"],
    ["CONNECTION_DESTROYED", "postgres.js: the connection was terminated"],
    ["CONNECT_TIMEOUT", "postgres.js: no connection in time"],
    ["57P01", "admin_shutdown"],
    ["57P03", "cannot_connect_now (starting up or shutting down)"],
    ["08006", "connection_failure"],
    ["53300", "too_many_connections"],
  ])("%s (%s) → 503 problem with Retry-After", async (code) => {
    const response = errorToProblem(withCode(code));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect((await response.json()).detail).toMatch(/database is unavailable/);
  });

  it("keeps other errors a 500 (a constraint violation is our bug, not an outage)", () => {
    expect(errorToProblem(withCode("23505")).status).toBe(500);
    expect(errorToProblem(new Error("boom")).status).toBe(500);
  });
});
