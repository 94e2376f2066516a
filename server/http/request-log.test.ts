import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLog, writeCompletedLine } from "./request-log";

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
let server: ReturnType<ReturnType<typeof express>["listen"]>;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(requestLog(pino({ base: undefined }, sink), { ignore: (url) => url.startsWith("/assets/") }));
  app.post("/api/things", express.json(), (_req, res) => void res.json({ ok: true }));
  app.get("/assets/app.js", (_req, res) => void res.send("x"));
  app.get("/boom", (_req, res) => void res.status(503).send("down"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

const lineFor = async (id: string) => {
  await expect.poll(() => lines.find((line) => (line.req as { id: string }).id === id), { timeout: 5000 }).toBeDefined();
  return lines.find((line) => (line.req as { id: string }).id === id)!;
};

describe("requestLog", () => {
  it("logs one line per request with the id it sends back, the path without the query, the status and time, never the body", async () => {
    const response = await fetch(`${base}/api/things?token=secret`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: "hunter2" }),
    });
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineFor(id);
    expect(line).toMatchObject({ level: 30, msg: "request completed", req: { id, method: "POST", url: "/api/things" }, res: { statusCode: 200 } });
    expect(typeof line.responseTime).toBe("number");
    expect(JSON.stringify(line)).not.toMatch(/hunter2|secret/);
    expect(lines.filter((l) => (l.req as { id: string }).id === id)).toHaveLength(1);
  });

  it("marks 5xx answers as errored and leaves hashed assets out", async () => {
    const failed = await fetch(`${base}/boom`);
    expect((await lineFor(failed.headers.get("x-request-id")!)).msg).toBe("request errored");
    const asset = await fetch(`${base}/assets/app.js`);
    const assetId = asset.headers.get("x-request-id")!;
    await fetch(`${base}/boom`); // a later line: the asset's would have come before it
    await expect.poll(() => lines.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    expect(lines.some((line) => (line.req as { id: string }).id === assetId)).toBe(false);
  });
});

describe("writeCompletedLine", () => {
  it("writes the very line pino writes for the same fields, whatever the path holds", () => {
    for (const base of [undefined, { pid: 4242 }]) {
      const written: string[] = [];
      const logger = pino({ base, redact: { paths: ["req.headers.cookie"], censor: "[redacted]" } }, { write: (line: string) => void written.push(line) });
      for (const url of ["/api/auth/me", '/api/a"b\\c', "/api/caf\u00e9/\u0001/\u2028"]) {
        const fields = { req: { id: "4b0c7c1e-6f0e-4d59-9a39-4f6d8d2b6a10", method: "GET", url }, res: { statusCode: 404 }, responseTime: 12 };
        logger.info(fields, "request completed");
        writeCompletedLine(logger, fields.req.id, "GET", url, 404, 12);
        const [viaPino, direct] = written.splice(0).map((line) => line.replace(/"time":\d+/, '"time":0'));
        expect(direct).toBe(viaPino);
        expect(JSON.parse(direct!)).toMatchObject({ ...fields, msg: "request completed" });
      }
      logger.level = "warn";
      writeCompletedLine(logger, "id", "GET", "/", 200, 1);
      expect(written).toEqual([]);
    }
  });
});
