// How an Express request reaches the route modules: React Router's Express adapter
// (@react-router/express createRequestHandler), with three changes, all for the JSON API's hot paths:
//
// - A request body that declares a modest Content-Length is read from the socket into one Buffer before the web
//   Request is made. The stock adapter hands every body to React Router as a web ReadableStream fed from the Node
//   stream, which pauses and resumes the socket for each ~16 KB and passes every chunk through the web-streams
//   machinery; for an AI call's ~430 KB frame that was about a tenth of the request's CPU (bench/vision.ts).
//   Routes read the body exactly as before, and their own limits and 413s are unchanged: bigger or chunked
//   bodies still arrive as a stream, read as the route decides.
// - A request under /api calls the API's one route module (app/routes/api.ts, whose dispatcher finds the operation,
//   api.ts) directly instead of going through React Router's pipeline; pages and everything else go through React
//   Router as before. `directApi: false`
//   (API_DIRECT_DISPATCH=false) turns this off: tests/integration/api-dispatch.test.ts checks both paths answer alike.
// - A response made from a string (json(), problem()) is written with that string (response-text.ts) instead of
//   being read back out of its web stream.
import type { IncomingMessage } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler as createReactRouterHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { problem } from "./problem";
import { responseFields, responseText } from "./response-text";
import { requestMethod, type RouteArgs } from "./route-args";

/** Bodies up to this size are read whole first (a 1080p frame as a data URL is ~430 KB). */
export const PREREAD_LIMIT = 2 * 1024 * 1024;

export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  mode: string;
  /** Whether /api requests skip React Router's pipeline (config().apiDirectDispatch). */
  directApi: boolean;
}) {
  const handleRequest = createReactRouterHandler(options.build, options.mode);
  const { build } = options;
  const currentBuild = typeof build === "function" ? build : () => build;
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const context = options.getLoadContext(req, res);
      const api = options.directApi && API_PATH.test(req.path) ? apiModule(await currentBuild()) : null;
      const upload = preread(req);
      if (api) {
        // An API route starts as soon as the headers are in, so its session lookup overlaps the upload; its body
        // stream hands over the one buffer when the upload is complete (or fails if the client leaves).
        const body = upload ? uploadStream(upload) : undefined;
        await sendResponse(res, await callApiRoute(api, routeArgs(req, res, body, context)));
        return;
      }
      const body = upload ? await upload : undefined;
      if (body === "gone") return; // the client left mid-upload: nobody to answer (the request log still has its line)
      const request = createRequest(req, res, body ? oneChunkStream(body) : undefined);
      await sendResponse(res, await handleRequest(request, context));
    } catch (error) {
      next(error);
    }
  };
}

/**
 * An API route's args. A GET or HEAD has no body, and its web Request is made only when the route reads `request`
 * (./route-args.ts: `head` answers the method and headers without it); any other method's is made at once, so its
 * body is taken in hand as before.
 */
function routeArgs(req: ExpressRequest, res: ExpressResponse, body: ReadableStream<Uint8Array> | undefined, context: AppLoadContext): RouteArgs {
  // The dispatcher sets the operation's params once it has matched the path.
  const params = {};
  const head = {
    method: req.method,
    path: req.path,
    header: (name: string) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
  if (req.method !== "GET" && req.method !== "HEAD") return { request: createRequest(req, res, body), params, context, head };
  let request: Request | undefined;
  return {
    get request() {
      return (request ??= createRequest(req, res, undefined));
    },
    params,
    context,
    head,
  };
}

const API_PATH = /^\/api(\/|$)/i;
/** The route id of /api's splat in app/routes.ts: every /api route is the same module, the dispatcher. */
const API_ROUTE_ID = "api/not-found";

type ApiModule = { loader?: (args: RouteArgs) => Promise<Response> | Response; action?: (args: RouteArgs) => Promise<Response> | Response };
const apiModules = new WeakMap<ServerBuild, ApiModule | null>();

/** The API's route module in a build (null, and React Router handles /api, in a build without it). */
function apiModule(build: ServerBuild): ApiModule | null {
  let module = apiModules.get(build);
  if (module === undefined) apiModules.set(build, (module = (build.routes[API_ROUTE_ID]?.module as ApiModule | undefined) ?? null));
  return module;
}

/** What React Router does for a resource route: the loader for GET and HEAD, else the action; a thrown Response is the answer. */
async function callApiRoute(route: ApiModule, args: RouteArgs): Promise<Response> {
  const method = requestMethod(args);
  const handler = method === "GET" || method === "HEAD" ? route.loader : route.action;
  if (!handler) return problem(405, `${method} is not supported here`);
  try {
    return await handler(args as Parameters<typeof handler>[0]);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The body read whole, when it declares a length within PREREAD_LIMIT ("gone" if the client leaves); undefined to stream it. */
function preread(req: IncomingMessage): Promise<Buffer | "gone"> | undefined {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const header = req.headers["content-length"];
  const length = header === undefined || !/^\d+$/.test(header) ? NaN : Number(header);
  if (!(length <= PREREAD_LIMIT)) return undefined;
  return new Promise((resolve) => {
    // One buffer of the declared size: chunks are copied in once instead of collected and concatenated.
    const body = Buffer.allocUnsafe(length);
    let received = 0;
    const onData = (chunk: Buffer) => {
      // Node's HTTP parser never passes on more than Content-Length; guard anyway rather than overrun.
      const room = length - received;
      chunk.copy(body, received, 0, Math.min(room, chunk.length));
      received += Math.min(room, chunk.length);
    };
    const done = (result: Buffer | "gone") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      resolve(result);
    };
    const onEnd = () => done(received === length ? body : body.subarray(0, received));
    const onClose = () => done("gone");
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
  });
}

/** Raised by a body stream whose client left before the upload was complete. */
export class ClientLeft extends Error {
  constructor() {
    super("The client left before sending the whole body");
    this.name = "ClientLeft";
  }
}

/** A body stream of the upload's one buffer, available once the upload completes. */
function uploadStream(upload: Promise<Buffer | "gone">): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start: (controller) =>
      upload.then((bytes) => {
        if (bytes === "gone") return controller.error(new ClientLeft());
        if (bytes.byteLength > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        controller.close();
      }),
  });
}

/**
 * The origin a request came to, as React Router's Express adapter works it out for the web Request's URL: the
 * protocol Express trusts, the host name, and the port of X-Forwarded-Host (when the proxy is trusted) or Host.
 */
export function requestOrigin(req: ExpressRequest): string {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = Number.isSafeInteger(Number.parseInt(forwardedPort!, 10))
    ? Number.parseInt(forwardedPort!, 10)
    : Number.isSafeInteger(Number.parseInt(hostPort!, 10))
      ? Number.parseInt(hostPort!, 10)
      : "";
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return `${req.protocol}://${hostname}${port ? `:${port}` : ""}`;
}

/** The web Request; `body` is the preread body's stream, or undefined to stream the body from the socket. */
function createRequest(req: ExpressRequest, res: ExpressResponse, body: ReadableStream<Uint8Array> | undefined): Request {
  const url = new URL(`${requestOrigin(req)}${req.originalUrl}`);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: createHeaders(req.headers) };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // A stream of the one buffer rather than the bytes themselves: given bytes, Request copies them all again.
    init.body = body ?? createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new ServerRequest(url.href, init, res);
}

/**
 * A web Request whose `signal` aborts when the client goes away before the answer is complete, made only when route
 * code asks for it (the AI routes do; most do not). Handing Request a signal of our own made it link its own to ours
 * (a second AbortController, a WeakRef, a finalization registration, a listener): with ours, about 3 % of a small
 * API request's CPU (bench/foundation.ts). Everything else is the plain Request.
 */
class ServerRequest extends Request {
  #controller: AbortController | undefined;
  #left = false;

  constructor(url: string, init: RequestInit, res: ExpressResponse) {
    super(url, init);
    // Made after the response closed (a GET's Request is made on first read): the client left unless it was answered.
    if (res.closed) {
      this.#left = !res.writableFinished;
      return;
    }
    res.once("close", () => {
      if (res.writableFinished) return;
      this.#left = true;
      this.#controller?.abort();
    });
  }

  override get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#left) this.#controller.abort();
    }
    return this.#controller.signal;
  }
}

function oneChunkStream(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      controller.close();
    },
  });
}

function createHeaders(requestHeaders: IncomingMessage["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    if (responseText(response) === undefined) await response.body?.cancel(); // a text answer has no stream to stop
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A text answer's fields as a list when nothing has read its Headers (response-text.ts); the same entries either way.
  const fields = responseFields(response) ?? response.headers.entries();
  let type: string | undefined;
  for (const [key, value] of fields) {
    if (key === "content-type") type = value;
    // Express's append, whose only work for a header not set yet (Content-Type aside: it adds a charset) is setHeader.
    if (key !== "content-type" && !res.hasHeader(key)) res.setHeader(key, value);
    else res.append(key, value);
  }
  if (type?.match(/text\/event-stream/i)) res.flushHeaders();
  const text = responseText(response);
  if (text !== undefined) {
    res.end(text);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
