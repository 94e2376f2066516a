// Request bodies through server/http/request-handler.ts: bodies with a Content-Length are read whole first,
// others stream; either way routes see the same body and keep their own limits, and a client that leaves
// mid-upload harms nothing.
import { request as httpRequest } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { signUpUser } from "../support/client";

/** A raw HTTP request: the body written in pieces, with or without a Content-Length. */
function rawPost(path: string, headers: Record<string, string>, pieces: Buffer[], options: { declareLength: boolean; abortAfter?: number }) {
  return new Promise<{ status: number; body: string } | "aborted" | "reset">((resolve, reject) => {
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const req = httpRequest(new URL(path, inject("baseUrl")), {
      method: "POST",
      headers: { ...headers, ...(options.declareLength ? { "content-length": String(total) } : { "transfer-encoding": "chunked" }) },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      options.abortAfter !== undefined ? resolve("aborted") : error.code === "ECONNRESET" || error.code === "EPIPE" ? resolve("reset") : reject(error),
    );
    pieces.forEach((piece, i) => {
      if (options.abortAfter !== undefined && i === options.abortAfter) {
        req.destroy();
        resolve("aborted");
        return;
      }
      req.write(piece);
    });
    if (options.abortAfter === undefined) req.end();
  });
}

const split = (text: string, parts: number) => {
  const bytes = Buffer.from(text);
  const size = Math.ceil(bytes.length / parts);
  return Array.from({ length: parts }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
};

describe("request bodies", () => {
  it("reach the route the same with a Content-Length (read whole) and chunked (streamed)", async () => {
    const user = await signUpUser();
    const headers = { cookie: user.client.cookieHeader, "content-type": "application/json" };
    for (const declareLength of [true, false]) {
      const answer = await rawPost("/api/moondream/api-key", headers, split(JSON.stringify({ apiKey: "my-own-key" }), 7), { declareLength });
      expect(answer).toEqual({ status: 200, body: JSON.stringify({ hasMoondreamApiKey: true }) });
      const invalid = await rawPost("/api/moondream/api-key", headers, split('{"apiKey": "  "}', 3), { declareLength });
      expect(typeof invalid === "object" && invalid.status).toBe(400);
      const broken = await rawPost("/api/moondream/api-key", headers, split('{"apiKey": "abc"', 2), { declareLength });
      expect(typeof broken === "object" && broken.status).toBe(400);
    }
  });

  it("keep each route's own limit, whether the body is read whole or streamed", async () => {
    const user = await signUpUser();
    const headers = { cookie: user.client.cookieHeader, "content-type": "application/json" };
    const big = JSON.stringify({ apiKey: "x".repeat(1_500_000) }); // over the 1 MB default, under the 2 MB read whole
    const declared = await rawPost("/api/moondream/api-key", headers, split(big, 20), { declareLength: true });
    expect(typeof declared === "object" && declared.status).toBe(413);
    // A streamed body is cut off at the limit: the 413 may race the server closing the upload.
    const streamed = await rawPost("/api/moondream/api-key", headers, split(big, 20), { declareLength: false });
    expect(streamed === "reset" || (typeof streamed === "object" && streamed.status === 413)).toBe(true);
    expect((await user.client.get("/api/auth/me")).status).toBe(200);
  });

  it("come to no harm when the client leaves mid-upload", async () => {
    const user = await signUpUser();
    const headers = { cookie: user.client.cookieHeader, "content-type": "application/json" };
    const pieces = split(JSON.stringify({ imageData: `data:image/jpeg;base64,${"A".repeat(600_000)}`, object: "person" }), 10);
    for (const declareLength of [true, false]) {
      expect(await rawPost("/api/moondream/detect", headers, pieces, { declareLength, abortAfter: 4 })).toBe("aborted");
    }
    expect((await fetch(new URL("/healthz", inject("baseUrl")))).status).toBe(200);
    expect((await user.client.get("/api/auth/me")).status).toBe(200);
  });
});
