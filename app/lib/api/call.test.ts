// The typed client against a real HTTP server on loopback: how params, query and body go on the wire, the spec's
// "<status>: <body text>" errors with their problem details, the answer check against the catalogue, and abort.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "../../schemas/operations";
import { AnswerMismatchError, call, operationUrl } from "./call";
import { ApiError, errorDetail, isAbort, problemFieldErrors, problemType } from "./errors";
import { photosApi } from "./photos";

interface Seen {
  method: string;
  url: string;
  type: string | undefined;
  body: string;
}
type Answer = { status: number; headers?: Record<string, string>; body?: string; statusText?: string } | "hold";

let server: Server;
const seen: Seen[] = [];
let answer: (request: Seen) => Answer = () => ({ status: 500 });
/** Requests the server holds open (the abort test), and a way to wait until one arrives. */
const held: ServerResponse[] = [];
let onHeld: (() => void) | null = null;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Answer {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const request = { method: req.method!, url: req.url!, type: req.headers["content-type"], body };
      seen.push(request);
      const reply = answer(request);
      if (reply === "hold") {
        held.push(res);
        onHeld?.();
        return;
      }
      res.writeHead(reply.status, reply.statusText ?? "", reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  // The browser resolves the catalogue's paths against the page; here the page is the test server.
  vi.stubGlobal("location", new URL(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/studio`));
});
afterEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  vi.unstubAllGlobals();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("call: the request", () => {
  it("fills the path template with encoded params", async () => {
    answer = () => ({ status: 204 });
    await expect(call(api.stories.remove, { params: { id: "a b/c?" } })).resolves.toBeUndefined();
    expect(seen).toEqual([{ method: "DELETE", url: "/api/stories/a%20b%2Fc%3F", type: undefined, body: "" }]);
  });

  it("puts the set query fields in the URL and leaves unset ones out", async () => {
    answer = () => json([], 200, { "X-Next-Cursor": "next-page" });
    const page = await photosApi.list({ limit: 5, cursor: null, storyId: "s 1" });
    expect(seen.map((r) => r.url)).toEqual(["/api/photos?limit=5&storyId=s+1"]);
    expect(page).toEqual({ items: [], nextCursor: "next-page" });
  });

  it("sends a JSON body with its content type, and no content type without a body", async () => {
    answer = (request) => (request.url === "/api/moondream/api-key" ? json({ hasMoondreamApiKey: true }) : json({ secret: "whsec_abc" }));
    await expect(call(api.moondream.saveApiKey, { body: { apiKey: "md-key" } })).resolves.toEqual({ hasMoondreamApiKey: true });
    await expect(call(api.webhooks.rotateSecret)).resolves.toEqual({ secret: "whsec_abc" });
    expect(seen).toEqual([
      { method: "POST", url: "/api/moondream/api-key", type: "application/json", body: '{"apiKey":"md-key"}' },
      { method: "POST", url: "/api/webhooks/secret", type: undefined, body: "" },
    ]);
  });

  it("builds image URLs without fetching them", () => {
    expect(photosApi.thumbnailUrl("p 1")).toBe("/api/photos/p%201/thumbnail");
    expect(operationUrl(api.photos.image, { params: { id: "p1" }, query: { owner: "u1", expires: "9", signature: "s" } })).toBe(
      "/api/photos/p1/image?owner=u1&expires=9&signature=s",
    );
    expect(() => operationUrl(api.photos.thumbnail, { params: { id: "" } })).toThrow("GET /api/photos/{id}/thumbnail: the path parameter id is missing");
    expect(seen).toEqual([]);
  });
});

describe("call: failures", () => {
  it("raises '<status>: <body text>' and reads the problem's detail, type and field errors", async () => {
    const problem = {
      type: "https://framewise.app/problems/invalid-input",
      title: "Bad Request",
      status: 400,
      detail: "The webhook URL is not allowed.",
      errors: { webhookUrl: ["Use a public address"] },
    };
    answer = () => ({ status: 400, headers: { "content-type": "application/problem+json" }, body: JSON.stringify(problem) });
    const error = await call(api.webhooks.saveSettings, { body: { webhookUrl: "http://127.0.0.1/", webhookEnabled: true, webhookEventType: "simple" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`400: ${JSON.stringify(problem)}`);
    expect((error as ApiError).status).toBe(400);
    expect(errorDetail(error, "fallback")).toBe("The webhook URL is not allowed.");
    expect(problemType(error)).toBe(problem.type);
    expect(problemFieldErrors(error)).toEqual({ webhookUrl: ["Use a public address"] });
  });

  it("falls back to the status text when the error body is empty", async () => {
    answer = () => ({ status: 503, statusText: "Service Unavailable" });
    const error = await call(api.webhooks.secret).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe("503: Service Unavailable");
    expect(errorDetail(error, "fallback")).toBe("503: Service Unavailable");
    expect(problemType(error)).toBeNull();
    expect(problemFieldErrors(error)).toEqual({});
    expect(errorDetail(new Error(""), "Failed to create account")).toBe("Failed to create account");
  });

  it("checks the answer against the operation's schema in tests, naming the operation", async () => {
    answer = () => json({ secret: 42 });
    const error = await call(api.webhooks.secret).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerMismatchError);
    expect((error as Error).message).toMatch(/^GET \/api\/webhooks\/secret answered with a body that does not match its schema:\n.*expected string.*\n.*secret/);
  });

  it("rejects with an abort when the caller gives up, leaving the request behind", async () => {
    answer = () => "hold";
    const arrived = new Promise<void>((resolve) => (onHeld = resolve));
    const controller = new AbortController();
    const pending = call(api.moondream.caption, { body: { imageData: "data:image/jpeg;base64,AAAA", priority: "loop" }, signal: controller.signal }).catch((e: unknown) => e);
    await arrived;
    controller.abort();
    const error = await pending;
    expect(isAbort(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
  });
});

describe("call: types", () => {
  it("types input from the catalogue", () => {
    // Checked by `npm run typecheck`; these calls are never made.
    const typed = () => {
      // @ts-expect-error the path needs its id
      void call(api.stories.get);
      // @ts-expect-error a body field of the wrong type
      void call(api.stories.rename, { params: { id: "s1" }, body: { title: 5 } });
      // @ts-expect-error an operation without a body takes none
      void call(api.stories.finish, { params: { id: "s1" }, body: {} });
      // @ts-expect-error images are loaded by URL, not called
      void call(api.photos.thumbnail, { params: { id: "p1" } });
    };
    expect(typed).toBeTypeOf("function");
  });
});
