import type { AddressInfo } from "node:net";
import { request } from "node:http";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressWhenOffered } from "./compression";

const servers: Array<ReturnType<ReturnType<typeof express>["listen"]>> = [];
const bases: Record<"package" | "ours", string> = { package: "", ours: "" };

/** The same answers behind the package itself and behind compressWhenOffered. */
beforeAll(async () => {
  for (const [name, middleware] of [
    ["package", compression()],
    ["ours", compressWhenOffered()],
  ] as const) {
    const app = express();
    app.use(middleware);
    app.get("/json", (_req, res) => void res.json({ text: "x".repeat(2000) }));
    app.get("/small", (_req, res) => void res.type("text/html").send("<p>hi</p>"));
    app.get("/png", (_req, res) => void res.type("image/png").send(Buffer.alloc(2000)));
    app.get("/no-transform", (_req, res) => void res.set("Cache-Control", "no-transform").json({ text: "x".repeat(2000) }));
    app.get("/vary", (_req, res) => void res.set("Vary", "Origin").json({}));
    app.get("/head-args", (_req, res) => void res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
    app.get("/head-array", (_req, res) => void res.writeHead(201, "Made", ["Content-Type", "text/plain", "X-One", "1"]).end("made"));
    app.get("/small-json", (_req, res) => void res.json({ ok: true }));
    app.get("/declared", (_req, res) => void res.set("Content-Length", "2000").type("text/plain").end("x".repeat(2000)));
    app.get("/buffer", (_req, res) => void res.type("application/json").end(Buffer.from(JSON.stringify({ text: "y".repeat(3000) }))));
    app.get("/written", (_req, res) => {
      res.type("text/plain");
      res.write("a".repeat(10));
      res.end("b".repeat(10));
    });
    app.get("/flush", (_req, res) => void res.type("text/plain").end(typeof (res as unknown as { flush?: unknown }).flush));
    app.get("/stream", (_req, res) => {
      res.setHeader("Content-Type", "text/event-stream");
      res.flushHeaders();
      res.end("data: 1\n\n");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    servers.push(server);
    bases[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(() => servers.forEach((server) => server.close()));

function get(url: string, headers: Record<string, string>, method = "GET"): Promise<{ status: number; message: string; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          message: res.statusMessage!,
          headers: res.rawHeaders.filter((_, i) => res.rawHeaders[i - (i % 2)] !== "Date" && res.rawHeaders[i - (i % 2)] !== "ETag"),
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("compressWhenOffered", () => {
  it("answers a request without Accept-Encoding exactly as the package does (Vary on compressible, transformable answers)", async () => {
    for (const path of ["/json", "/small", "/small-json", "/png", "/no-transform", "/vary", "/head-args", "/head-array", "/declared", "/buffer", "/written", "/stream"]) {
      const [viaPackage, viaOurs] = await Promise.all([get(`${bases.package}${path}`, {}), get(`${bases.ours}${path}`, {})]);
      expect(viaOurs, path).toEqual(viaPackage);
    }
    expect((await get(`${bases.ours}/json`, {})).headers).toContain("Accept-Encoding");
    expect((await get(`${bases.ours}/png`, {})).headers).not.toContain("Accept-Encoding");
  });

  it("answers a request that offers an encoding as the package does: compressed when big enough, as is below its threshold", async () => {
    const paths = ["/json", "/small", "/small-json", "/png", "/no-transform", "/vary", "/head-args", "/head-array", "/declared", "/buffer", "/written", "/flush", "/stream"];
    for (const encoding of ["gzip", "br", "identity", ""]) {
      for (const path of paths) {
        for (const method of ["GET", "HEAD"]) {
          const [viaPackage, viaOurs] = await Promise.all([
            get(`${bases.package}${path}`, { "accept-encoding": encoding }, method),
            get(`${bases.ours}${path}`, { "accept-encoding": encoding }, method),
          ]);
          expect(viaOurs, `${method} ${path} ${encoding}`).toEqual(viaPackage);
        }
      }
    }
    expect((await get(`${bases.ours}/json`, { "accept-encoding": "gzip" })).headers).toContain("gzip");
    expect((await get(`${bases.ours}/stream`, { "accept-encoding": "gzip" })).headers).toContain("gzip");
    expect((await get(`${bases.ours}/small-json`, { "accept-encoding": "gzip" })).headers).not.toContain("gzip");
  });
});
