// Helpers for JSON resource routes: read and validate bodies, answer JSON, turn every failure into problem JSON.
import type { z } from "zod";
import { logger } from "../logger";
import type { DecodedBase64 } from "./json-body";
import { parseJsonBytes, type ParsedJson, type ParseOptions } from "./json-body";
import { notFound, ProblemError } from "../errors";
import { problem, problemResponse, validationProblem } from "./problem";
import type { Operation } from "#app/schemas/operations/define";
import { apiRouteTable, matchApiRoute } from "./api-routes";
import { requestMethod, type RouteArgs } from "./route-args";
import { textResponse } from "./response-text";

/** An operation's handler bound by handle() (./operation.ts): what the dispatcher calls for a matched route. */
export type BoundHandler = ((args: RouteArgs) => Promise<Response>) & { operation: Operation };

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A validated JSON body, and the base64 strings (a frame) decoded while it was parsed, for the image code to reuse. */
export interface DecodedJson<T> {
  input: T;
  decoded: readonly DecodedBase64[];
}

/** Reads a JSON body (up to `limit` bytes) and validates it with a schema from app/schemas (json-body.ts decodes images on the way). */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit = DEFAULT_BODY_LIMIT, options?: ParseOptions): Promise<DecodedJson<z.output<S>>> {
  const parsed = await readJsonBody(request, limit, options);
  return { input: parseInput(schema, parsed.value), decoded: parsed.decoded };
}

/** The body's JSON value (undefined for an empty body), after the Content-Type and size checks. */
async function readJsonBody(request: Request, limit = DEFAULT_BODY_LIMIT, options?: ParseOptions): Promise<ParsedJson> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ProblemError(415, "Send a JSON body with Content-Type: application/json");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const bytes = await readBytesWithin(request, limit);
  if (bytes.length === 0) return { value: undefined, decoded: [] };
  try {
    return parseJsonBytes(bytes, options);
  } catch {
    throw new ProblemError(400, "The request body is not valid JSON");
  }
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = pathWithNul(value);
  if (nul !== null) {
    // PostgreSQL text and jsonb cannot hold U+0000; no field of ours means one, so it is bad input here.
    throw new ProblemError(400, "Text must not contain NUL characters (\\u0000)", { errors: { [nul || "body"]: ["must not contain NUL characters"] } });
  }
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationProblem(result.error);
  return result.data;
}

/** The dotted path of the first string (or key) holding U+0000, or null when there is none. */
function pathWithNul(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (typeof value !== "object" || value === null) return null;
  // An explicit stack: hostile JSON can be nested deeper than the call stack allows.
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (typeof current === "string") {
      if (current.includes("\u0000")) return at;
    } else if (typeof current === "object" && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        const childPath = at ? `${at}.${key}` : key;
        if (key.includes("\u0000")) return at || "body";
        stack.push([child, childPath]);
      }
    }
  }
  return null;
}

async function readBytesWithin(request: Request, limit: number): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The client left mid-upload (or its connection broke): nobody will read an answer, and it is no server error.
      throw new ProblemError(499, "The request was cancelled before its body arrived");
    }
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  // A body read whole by the request handler arrives as one chunk: used where it is, without a copy.
  return chunks.length === 1 ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength) : Buffer.concat(chunks);
}

function tooLarge(limit: number): ProblemError {
  return new ProblemError(413, `The request body is larger than ${Math.round(limit / 1024)} KB`);
}

const JSON_FIELDS: Readonly<Record<string, string>> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function json(body: unknown, init: ResponseInit = {}): Response {
  // Without headers of the caller's (most answers): the fields as a list, not a Headers object (response-text.ts).
  if (init.headers === undefined) return textResponse(JSON.stringify(body), { status: init.status, statusText: init.statusText, headers: JSON_FIELDS });
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return textResponse(JSON.stringify(body), { ...init, headers });
}

/** A resource's handlers, one per operation of its catalogue group (`cameras.list`, `cameras.get`…). */
export type ResourceHandlers<Group> = { [Name in keyof Group]: BoundHandler };
type Catalogue = Record<string, Record<string, Operation>>;

/**
 * The one handler of every /api request (export it as both `loader` and `action`: React Router sends GET/HEAD to
 * the loader and every other method to the action). It finds the request's operation in the catalogue's route
 * table (./api-routes.ts) and calls its handler, bound with `handle` (./operation.ts), so that thrown
 * ProblemErrors, thrown Responses (redirects aside) and unexpected errors all leave as problem JSON; a path with
 * no operation is a 404, a method its path has no operation for a 405. `handlers` must bind every operation of
 * the catalogue and nothing else (the types say so; a mismatch is also a start-up error).
 */
export function apiDispatcher<C extends Catalogue>(catalogue: C, handlers: { [Group in keyof C]: ResourceHandlers<C[Group]> }) {
  for (const group of Object.keys(handlers)) if (!(group in catalogue)) throw new Error(`handlers for ${group}, which the catalogue has no group of`);
  const entries = Object.entries(catalogue).flatMap(([group, operations]) => {
    const bound = (handlers[group] ?? {}) as Record<string, BoundHandler>;
    for (const name of Object.keys(bound)) if (!(name in operations)) throw new Error(`${group}.${name} has a handler but no operation in the catalogue`);
    return Object.entries(operations).map(([name, operation]) => {
      const handler = bound[name];
      if (!handler) throw new Error(`${group}.${name} (${describe(operation)}) has no handler`);
      // A handler bound to another operation would answer with the wrong schemas: fail at start-up.
      if (handler.operation !== operation) throw new Error(`${group}.${name} (${describe(operation)}) is bound to ${describe(handler.operation)}`);
      return { operation, handler };
    });
  });
  const table = apiRouteTable(entries);
  return async (args: RouteArgs): Promise<Response> => {
    const sent = requestMethod(args);
    const found = matchApiRoute(table, args.head?.path ?? new URL(args.request.url).pathname);
    if (!found) return problem(404, `No API route matches ${sent} ${new URL(args.request.url).pathname}`);
    const method = sent.toUpperCase();
    const handler = found.route.methods.get(method === "HEAD" ? "GET" : method);
    if (!handler) {
      const allow = [...found.route.methods.keys()].join(", ");
      return problem(405, `${sent} is not supported here; use ${allow}`, { headers: { Allow: allow } });
    }
    try {
      // The operation's own parameters (React Router's args carry the route's, or the splat's for an unknown path).
      args.params = found.params;
      return await handler(args);
    } catch (error) {
      return errorToProblem(error);
    }
  };
}

const describe = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`;

export function errorToProblem(error: unknown): Response {
  if (error instanceof ProblemError) return problemResponse(error);
  if (error instanceof Response) {
    if (error.headers.get("Content-Type")?.includes("problem+json")) return error;
    return problem(error.status, error.statusText || "Request failed");
  }
  logger.error({ err: error }, "unhandled API error");
  if (isDatabaseUnavailable(error)) return problem(503, "The database is unavailable; try again in a moment", { headers: { "Retry-After": "2" } });
  return problem(500, "Something went wrong on our side; the error has been logged");
}

// Connection-level failures (the socket, postgres.js's own codes) and the server's "connection exception" (08…),
// shutdown and too-many-connections states: all pass once the database is back, so they are 503, not 500.
const DATABASE_UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "QUERY_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (DATABASE_UNAVAILABLE.has(code) || code.startsWith("08"));
}

/** A route's `:id` param: anything that is not a UUID cannot name a row, so it is a plain 404. */
export function idParam(value: string | undefined, what: string): string {
  if (!value || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw notFound(what);
  return value.toLowerCase();
}

/** The query string's parameters; one given more than once (`?cameraId=a&cameraId=b`) is the list of its values. */
export function queryParams(request: Request): Record<string, string | string[]> {
  const params = new URL(request.url).searchParams;
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    result[key] = values.length > 1 ? values : values[0]!;
  }
  return result;
}

/**
 * Serves stored image bytes to their owner: content-addressed ETag, cached privately for a year
 * (the bytes behind a URL never change), 304 when the browser already has them. `bytes` is read only for a 200:
 * a revalidation is answered from the ETag alone, without the blob store.
 */
export async function imageResponse(request: Request, image: { bytes: () => Promise<Buffer>; etag: string; contentType: string }): Promise<Response> {
  const etag = `"${image.etag}"`;
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": "private, max-age=31536000, immutable",
    "Content-Type": image.contentType,
    "X-Content-Type-Options": "nosniff",
  });
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)) {
    return new Response(null, { status: 304, headers });
  }
  const bytes = await image.bytes();
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
