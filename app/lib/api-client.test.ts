// The browser request helper's contract: "<status>: <body text>" errors, and problem `detail` for people.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiRequest, errorDetail } from "./api-client";

let server: Server;
let base: string;
const seen: Array<{ method: string; type: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, type: req.headers["content-type"], body });
      if (req.url === "/problem") {
        res.writeHead(402, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ title: "Payment Required", status: 402, detail: "Your 100 free calls are used up." }));
      } else if (req.url === "/empty-error") {
        res.writeHead(503, "Service Unavailable");
        res.end();
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ok: true }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("apiRequest", () => {
  it("sends a JSON content type only when there is a body", async () => {
    await apiRequest("GET", `${base}/ok`);
    await apiRequest("POST", `${base}/ok`, { a: 1 });
    expect(seen.at(-2)).toEqual({ method: "GET", type: undefined, body: "" });
    expect(seen.at(-1)).toEqual({ method: "POST", type: "application/json", body: '{"a":1}' });
  });

  it("raises '<status>: <body text>' and exposes the problem detail", async () => {
    const error = await apiRequest("GET", `${base}/problem`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`402: {"title":"Payment Required","status":402,"detail":"Your 100 free calls are used up."}`);
    expect(errorDetail(error, "fallback")).toBe("Your 100 free calls are used up.");
  });

  it("falls back to the status text when the body is empty", async () => {
    const error = (await apiRequest("GET", `${base}/empty-error`).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe("503: Service Unavailable");
    expect(errorDetail(new Error(""), "Failed to create account")).toBe("Failed to create account");
  });
});
