// The one way the browser calls the API: `call(api.stories.get, { params: { id } })`, typed by the operation
// catalogue (app/schemas/operations) — params from the path template, query and body from their schemas, the
// answer from the success schema, which development and tests also check the answer against.
import { z } from "zod";
import type { Operation, OperationOutput, PathParams } from "../../schemas/operations";
import { ApiError, retryAfterSeconds } from "./errors";

/**
 * Whether answers are checked against their schema: Vite's DEV is true under `react-router dev` and in vitest, and
 * a constant false in the production build, where the check and its cost are dropped. The production build is what
 * the Playwright suites run, so they do not check here; the server's own output validation and the integration
 * suites cover the same schemas there.
 */
const CHECK_ANSWERS: boolean = import.meta.env.DEV;

/** An operation answered with JSON or nothing (204); binary and text answers are loaded by URL (`operationUrl`). */
export type JsonOperation = Operation & { success: { contentType?: undefined } };

type ParamsInput<O extends Operation> = [keyof PathParams<O["path"]>] extends [never] ? { params?: undefined } : { params: PathParams<O["path"]> };
type QueryInput<O extends Operation> = O extends { query: infer Q extends z.ZodType } ? { query?: z.input<Q> } : { query?: undefined };
type BodyInput<O extends Operation> = O extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: undefined };

/** Where an operation's URL comes from: the path template's parameters and the query. */
export type UrlInput<O extends Operation> = ParamsInput<O> & QueryInput<O>;

export type CallInput<O extends Operation> = UrlInput<O> &
  BodyInput<O> & {
    /** Abandons the call (a stopped loop); the call then rejects with an AbortError (see isAbort). */
    signal?: AbortSignal;
    /** Lets the request outlive the page (a PTZ stop sent while the page unloads). */
    keepalive?: boolean;
  };

/** The input argument, optional when the operation needs no params and no body. */
type InputArgs<I> = object extends I ? [input?: I] : [input: I];

/** The answer with its headers, for the operations that say something there (the photo list's X-Next-Cursor). */
export interface Answer<O extends Operation> {
  data: OperationOutput<O>;
  headers: Headers;
}

/** Thrown in development and tests when an answer does not match the operation's success schema. */
export class AnswerMismatchError extends Error {
  constructor(operation: Operation, error: z.ZodError) {
    super(`${operationName(operation)} answered with a body that does not match its schema:\n${z.prettifyError(error)}`);
    this.name = "AnswerMismatchError";
  }
}

/** Calls an operation and yields its parsed JSON answer (nothing for a 204); a non-success answer throws ApiError. */
export async function call<O extends JsonOperation>(operation: O, ...[input]: InputArgs<CallInput<O>>): Promise<OperationOutput<O>> {
  return (await send(operation, input)).data as OperationOutput<O>;
}

/** Like `call`, and also yields the answer's headers. */
export async function callWithHeaders<O extends JsonOperation>(operation: O, ...[input]: InputArgs<CallInput<O>>): Promise<Answer<O>> {
  const { data, headers } = await send(operation, input);
  return { data: data as OperationOutput<O>, headers };
}

interface RawInput {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
  keepalive?: boolean;
}

async function send(operation: Operation, input: RawInput = {}): Promise<{ data: unknown; headers: Headers }> {
  const path = buildUrl(operation, input.params, input.query);
  // The page resolves the path in a browser; outside one (unit tests against a loopback server) `location` names it.
  const url = typeof location === "undefined" ? path : new URL(path, location.href).href;
  const response = await fetch(url, {
    method: operation.method.toUpperCase(),
    signal: input.signal,
    keepalive: input.keepalive,
    credentials: "include",
    headers: input.body === undefined ? undefined : { "Content-Type": "application/json" },
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText, retryAfterSeconds(response.headers));
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  const schema = operation.success.schema;
  if (CHECK_ANSWERS && schema) {
    const checked = schema.safeParse(data);
    if (!checked.success) throw new AnswerMismatchError(operation, checked.error);
  }
  // The wire JSON itself, not the parse's copy: development then behaves exactly as the production build does.
  return { data, headers: response.headers };
}

/** An operation's binary answer (a picture taken now, which no URL can cache): a non-success answer throws ApiError. */
export async function fetchBlob<O extends Operation>(operation: O, ...[input]: InputArgs<UrlInput<O> & { signal?: AbortSignal }>): Promise<Blob> {
  const { params, query, signal } = (input ?? {}) as RawInput;
  const path = buildUrl(operation, params, query);
  const url = typeof location === "undefined" ? path : new URL(path, location.href).href;
  const response = await fetch(url, { method: operation.method.toUpperCase(), signal, credentials: "include" });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  return response.blob();
}

/** The URL of an operation (for images: `<img src>`, downloads), relative to this origin. */
export function operationUrl<O extends Operation>(operation: O, ...[input]: InputArgs<UrlInput<O>>): string {
  const { params, query } = (input ?? {}) as RawInput;
  return buildUrl(operation, params, query);
}

function buildUrl(operation: Operation, params: Record<string, string> | undefined, query: object | undefined): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === "") throw new Error(`${operationName(operation)}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}) as [string, unknown][]) {
    // Unset fields stay out of the URL, so the server applies its defaults.
    if (value === undefined || value === null || value === "") continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) search.append(name, String(item));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

function operationName(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/** What an operation's body accepts (z.input of its schema): the argument type of a resource wrapper. */
export type OperationBody<O extends Operation> = O extends { body: infer B extends z.ZodType } ? z.input<B> : never;
/** What an operation's query accepts (z.input of its schema). */
export type OperationQuery<O extends Operation> = O extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
