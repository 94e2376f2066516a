import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFastPath, decodablePath, resumeFastPathError, type Middleware } from "./api-fast-path";

const ran: string[] = [];
const mark =
  (name: string): Middleware =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

/** The last step: answers from what Express's request and response give it, or fails as the path asks. */
const handler: Middleware = async (req, res, next) => {
  ran.push("handler");
  if (req.path === "/api/throw") throw new Error("thrown");
  if (req.path === "/api/reject") return Promise.reject(new Error("rejected"));
  if (req.path === "/api/next-error") return next(Object.assign(new Error("bad"), { status: 422 }));
  if (req.path === "/api/fall-through") return next();
  res.status(200).json({ path: req.path, ip: req.ip, protocol: req.protocol, query: req.query, original: req.originalUrl, locals: typeof res.locals });
};

let server: Server;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(resumeFastPathError);
  app.use(mark("chain"));
  app.all("/{*splat}", (req, res) => void res.status(200).json({ chain: req.path }));
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    ran.push(`error: ${error.message}`);
    res.status(error.status ?? 500).json({ error: error.message });
  });
  server = createServer(apiFastPath(app, [mark("first"), mark("second"), decodablePath, handler])).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

async function get(path: string) {
  ran.length = 0;
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, ran: [...ran] };
}

describe("apiFastPath", () => {
  it("runs the steps in order for /api, with Express's request and response helpers working", async () => {
    const answer = await get("/api/things?x=1");
    expect(answer.ran).toEqual(["first", "second", "handler"]);
    expect(answer.body).toEqual({ path: "/api/things", ip: "127.0.0.1", protocol: "http", query: { x: "1" }, original: "/api/things?x=1", locals: "object" });
    expect((await get("/api")).ran).toEqual(["first", "second", "handler"]);
  });

  it("sends every other path to the Express app untouched", async () => {
    for (const path of ["/", "/apix", "/pricing", "/assets/api/x.js"]) {
      const answer = await get(path);
      expect(answer.ran, path).toEqual(["chain"]);
      expect(answer.body, path).toEqual({ chain: path });
    }
  });

  it("hands a thrown, rejected or passed-on error to the app's error handler, past its other middlewares", async () => {
    expect(await get("/api/throw")).toEqual({ status: 500, body: { error: "thrown" }, ran: ["first", "second", "handler", "error: thrown"] });
    expect(await get("/api/reject")).toEqual({ status: 500, body: { error: "rejected" }, ran: ["first", "second", "handler", "error: rejected"] });
    expect(await get("/api/next-error")).toEqual({ status: 422, body: { error: "bad" }, ran: ["first", "second", "handler", "error: bad"] });
    const malformed = await get("/api/%ZZ");
    expect(malformed.status).toBe(400);
    expect(malformed.ran).toEqual(["first", "second", "error: Failed to decode param '/api/%ZZ'"]);
  });

  it("treats a list that nobody answers as an error, not as a request for the whole chain again", async () => {
    const answer = await get("/api/fall-through");
    expect(answer.status).toBe(500);
    expect(answer.ran).toEqual(["first", "second", "handler", "error: No step of the API fast path answered"]);
  });
});
