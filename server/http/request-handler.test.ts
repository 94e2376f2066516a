// The web Request a route gets: its abort signal follows the client (made on first use, server/http/request-handler.ts),
// and a GET's Request itself is made only when the route reads it.
import { request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestHandler } from "./request-handler";
import type { RouteArgs } from "./route-args";

type Handler = (args: RouteArgs) => Promise<Response>;
const seen: Array<{ request: Request; readAfterLeaving?: AbortSignal }> = [];
let leftEarly: (() => void) | undefined;
const routes: Record<string, Handler> = {
  // Reads its signal at once, then waits for the client to leave.
  "api/wait": async ({ request }) => {
    seen.push({ request });
    const signal = request.signal;
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    return new Response(null, { status: 204 });
  },
  // Reads its signal only after the client has left.
  "api/late": async ({ request }) => {
    const entry: { request: Request; readAfterLeaving?: AbortSignal } = { request };
    seen.push(entry);
    await new Promise<void>((resolve) => (leftEarly = resolve));
    entry.readAfterLeaving = request.signal;
    return new Response(null, { status: 204 });
  },
  // A GET that first reads its request after the client left.
  "api/late-get": async (args) => {
    const entry: { request?: Request; readAfterLeaving?: AbortSignal } = {};
    seen.push(entry as { request: Request });
    await new Promise<void>((resolve) => (leftEarly = resolve));
    entry.request = args.request;
    entry.readAfterLeaving = args.request.signal;
    return new Response(null, { status: 204 });
  },
  // Answers from `head`, then compares it with the Request made after.
  "api/head": async (args) => {
    const fromHead = { method: args.head!.method, cookie: args.head!.header("cookie"), thing: args.head!.header("x-thing"), none: args.head!.header("x-none") };
    // A Request made listens for its response's close (to abort its signal): how the test sees it being made.
    const res = (args.context as unknown as { res: ServerResponse }).res;
    const madeBefore = res.listenerCount("close");
    const { request } = args;
    const fromRequest = { method: request.method, cookie: request.headers.get("cookie"), thing: request.headers.get("x-thing"), none: request.headers.get("x-none") };
    return Response.json({ fromHead, fromRequest, madeBefore, madeAfter: res.listenerCount("close"), same: args.request === request, url: request.url });
  },
  "api/quick": async ({ request }) => {
    seen.push({ request });
    return Response.json({ ok: true });
  },
};

// As app/routes/api.ts: every /api path is one module (the dispatcher), here picking a handler by `head`'s path.
const dispatch: Handler = async (args) => routes[args.head!.path.slice(1)]!(args);
const build = {
  routes: { "api/not-found": { id: "api/not-found", path: "api/*", module: { action: dispatch, loader: dispatch } } },
} as unknown as ServerBuild;

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let port = 0;
/** Server-side sockets closed so far: the HTTP server's own close handling (the response's "close") has run by then. */
let socketsClosed = 0;

beforeAll(async () => {
  const app = express();
  app.all("/{*splat}", createRequestHandler({ build, getLoadContext: (_req, res) => ({ cspNonce: undefined, res }) as never, mode: "production", directApi: true }));
  server = app.listen(0, "127.0.0.1");
  server.on("connection", (socket) => socket.once("close", () => socketsClosed++));
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => void server.close());

/** Sends a request and leaves (destroys the socket) once the route has it. */
async function sendAndLeave(path: string) {
  const before = seen.length;
  const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path, headers: { "content-length": "2" } });
  req.on("error", () => {}); // we hang up ourselves
  req.end("{}");
  await expect.poll(() => seen.length).toBe(before + 1);
  const closedBefore = socketsClosed;
  req.destroy();
  await expect.poll(() => socketsClosed).toBe(closedBefore + 1);
  return seen[before]!;
}

describe("the request's abort signal", () => {
  it("aborts when the client leaves before the answer", async () => {
    const { request } = await sendAndLeave("/api/wait");
    await expect.poll(() => request.signal.aborted).toBe(true);
    expect(request).toBeInstanceOf(Request);
  });

  it("is already aborted when first read after the client left", async () => {
    const entry = await sendAndLeave("/api/late");
    leftEarly!();
    await expect.poll(() => entry.readAfterLeaving?.aborted).toBe(true);
  });

  it("stays unaborted once the answer is complete", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/quick`, { method: "POST", body: "{}" });
    expect(await response.json()).toEqual({ ok: true });
    const { request } = seen.at(-1)!;
    const closedBefore = socketsClosed;
    await fetch(`http://127.0.0.1:${port}/api/quick`, { method: "POST", body: "{}", headers: { connection: "close" } });
    await expect.poll(() => socketsClosed).toBeGreaterThan(closedBefore); // this answer's response has closed too
    expect(seen.at(-1)!.request.signal.aborted).toBe(false);
    expect(request.signal.aborted).toBe(false);
  });
});

describe("a GET's web Request", () => {
  it("is made only when the route reads it, with the method and headers `head` gave", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/head?x=1`, { headers: { cookie: "a=1; b=2", "x-thing": "yes" } });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer.fromHead).toEqual({ method: "GET", cookie: "a=1; b=2", thing: "yes", none: null });
    expect(answer.fromRequest).toEqual(answer.fromHead);
    expect(answer.madeAfter).toBe((answer.madeBefore as number) + 1);
    expect(answer.same).toBe(true);
    expect(answer.url).toBe(`http://127.0.0.1:${port}/api/head?x=1`);
  });

  it("is already aborted when first made after the client left", async () => {
    const before = seen.length;
    const req = httpRequest({ host: "127.0.0.1", port, method: "GET", path: "/api/late-get" });
    req.on("error", () => {});
    req.end();
    await expect.poll(() => seen.length).toBe(before + 1);
    const closedBefore = socketsClosed;
    req.destroy();
    await expect.poll(() => socketsClosed).toBe(closedBefore + 1);
    leftEarly!();
    const entry = seen[before] as { request?: Request; readAfterLeaving?: AbortSignal };
    await expect.poll(() => entry.readAfterLeaving?.aborted).toBe(true);
  });
});
