// Binds a route handler to its operation in the catalogue (app/schemas/operations), so the catalogue is what the
// server enforces: who may call it, its path parameters, query and body, and (outside production) its answer.
import type { AppLoadContext } from "react-router";
import type { z } from "zod";
import type { CurrentUser } from "#app/schemas/auth";
import { pathParamSchemas, type Operation, type PathParams } from "#app/schemas/operations/define";
import { onlyAdmin, requireSessionByCookie, requireUser, type Session } from "../accounts/sessions";
import { config } from "../config";
import { notFound, ProblemError } from "../errors";
import { json, parseInput, queryParams, readJson, type BoundHandler } from "./api";
import type { DecodedBase64 } from "./json-body";
import { readForm } from "./multipart";

export type { BoundHandler } from "./api";
import { requestHeader, type RouteArgs } from "./route-args";
import type { Services } from "../services";

export type { RouteArgs } from "./route-args";

type Schema<O, Key extends string> = O extends { [K in Key]: infer S extends z.ZodType } ? z.output<S> : undefined;

export interface OperationArgs<O extends Operation> {
  request: Request;
  context: AppLoadContext | undefined;
  /** The path's parameters, checked: an `{id}` is a lower-case UUID. */
  params: PathParams<O["path"]>;
  query: Schema<O, "query">;
  body: Schema<O, "body">;
  /** A multipart operation's form, checked (files as FormFile, their bytes a view of the body). */
  form: Schema<O, "form">;
  /** The signed-in caller; for a public operation, nobody is looked up. */
  user: O["access"] extends "public" ? undefined : CurrentUser;
  /** The caller's session: the user and their stored key ciphertext, read by the same query (AI calls need it). */
  session: O["access"] extends "public" ? undefined : Session;
  /** The base64 strings of the body decoded while it was read (a frame's bytes), so nothing decodes them twice. */
  decoded: readonly DecodedBase64[];
  /** Headers for the answer the handler's value becomes (Set-Cookie, X-Total-Count, Link…). */
  headers: Headers;
  /** The process's long-lived parts (server/services.ts), from the request's load context. */
  services: Services;
}

/** A JSON operation answers with its success schema's value; any operation may answer with a Response of its own. */
export type OperationResult<O extends Operation> = O["success"]["schema"] extends z.ZodType ? z.input<O["success"]["schema"]> | Response : Response | void;

export interface HandleOptions {
  /** The largest body the operation reads, in bytes (1 MB when not given). */
  bodyLimit?: number;
  /**
   * A body field holding a frame as a base64 data URL that the handler passes to the vision service, which reads
   * it from `decoded`: a large one is then kept as bytes, with no JS string of it (json-body.ts `bytesFor`).
   */
  frameField?: string;
  /** What the path's parameter names, for its 404 ("Story not found"). */
  resource?: string;
  /** Rewrites a problem with the input (status 400) before it is answered, e.g. one message for any bad key. */
  badInput?: (problem: ProblemError) => ProblemError;
  /**
   * Another proof of ownership than the session, e.g. a signed link: the owner's id it names, or null. With it
   * the handler gets the owner's id (`userId`) rather than the signed-in user.
   */
  owner?: (input: { params: Record<string, string>; query: Record<string, unknown> }) => string | null;
}

/** A multipart operation's limit when its handler names none. */
const DEFAULT_FORM_LIMIT = 1024 * 1024;

export function handle<O extends Operation>(operation: O, run: (args: OperationArgs<O>) => Promise<OperationResult<O>>): BoundHandler;
export function handle<O extends Operation>(
  operation: O,
  options: HandleOptions & { owner: NonNullable<HandleOptions["owner"]> },
  run: (args: Omit<OperationArgs<O>, "user"> & { userId: string }) => Promise<OperationResult<O>>,
): BoundHandler;
export function handle<O extends Operation>(operation: O, options: HandleOptions, run: (args: OperationArgs<O>) => Promise<OperationResult<O>>): BoundHandler;
export function handle(operation: Operation, optionsOrRun: HandleOptions | ((args: never) => Promise<unknown>), maybeRun?: (args: never) => Promise<unknown>): BoundHandler {
  const options = typeof optionsOrRun === "function" ? {} : optionsOrRun;
  const run = (typeof optionsOrRun === "function" ? optionsOrRun : maybeRun!) as (args: Record<string, unknown>) => Promise<unknown>;
  const paramNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as keyof typeof pathParamSchemas);
  for (const name of paramNames) if (!pathParamSchemas[name]) throw new Error(`${describe(operation)}: no schema for the path parameter {${name}}`);
  const checkAnswer = config().apiResponseChecks;

  const badInput = (error: unknown): never => {
    throw options.badInput && error instanceof ProblemError && error.status === 400 ? options.badInput(error) : error;
  };

  // `args.request` is read only where needed: a GET's is made on first read (./route-args.ts).
  const bound = async (args: RouteArgs): Promise<Response> => {
    const { params: rawParams, context } = args;
    // The body is read while the session is looked up (a frame upload and a database round trip overlap), but
    // an anonymous caller still gets its 401 first, never a complaint about its body.
    const body = operation.body
      ? readJson(args.request, operation.body, options.bodyLimit, options.frameField === undefined ? undefined : { bytesFor: options.frameField }).catch(badInput)
      : undefined;
    body?.catch(() => {});
    const session = options.owner ? undefined : await caller(operation, args);
    const params: Record<string, string> = {};
    for (const name of paramNames) {
      const checked = pathParamSchemas[name].safeParse(rawParams[name]);
      // A value that cannot name a row names nothing: a plain 404, as for a row that is not there.
      if (!checked.success) throw notFound(options.resource ?? "Resource");
      params[name] = checked.data;
    }
    let query: unknown;
    try {
      query = operation.query ? parseInput(operation.query, queryParams(args.request)) : undefined;
    } catch (error) {
      badInput(error);
    }
    const owner = options.owner ? (options.owner({ params, query: (query ?? {}) as Record<string, unknown> }) ?? (await requireUser(args.request)).id) : undefined;
    // Made when the handler reads it: most answer with their value alone (json() then makes no Headers either).
    let headers: Headers | undefined;
    const read = await body;
    // An upload is read only now, once the caller may make it: nobody else gets to send the server 200 MB.
    const form = operation.form ? await readForm(args.request, operation.form, options.bodyLimit ?? DEFAULT_FORM_LIMIT).catch(badInput) : undefined;
    const decoded = read?.decoded ?? [];
    const who = options.owner ? { userId: owner } : { user: session?.user, session };
    const value = await run({
      get request() {
        return args.request;
      },
      context,
      params,
      query,
      body: read?.input,
      form,
      decoded,
      ...who,
      get headers() {
        return (headers ??= new Headers());
      },
      get services() {
        if (!context) throw new Error(`${describe(operation)}: the request has no load context to take services from`);
        return context.services;
      },
    });
    return answer(operation, value, headers, checkAnswer);
  };
  return Object.assign(bound, { operation });
}

/** The signed-in caller's session an operation's access level asks for (401 when anonymous, 403 when not an admin). */
async function caller(operation: Operation, args: RouteArgs): Promise<Session | undefined> {
  if (operation.access === "public") return undefined;
  const session = await requireSessionByCookie(requestHeader(args, "cookie"));
  if (operation.access === "admin") onlyAdmin(session.user);
  return session;
}

/** The handler's value as the operation's success answer, checked against its schema when checks are on. */
function answer(operation: Operation, value: unknown, headers: Headers | undefined, check: boolean): Response {
  if (value instanceof Response) return value;
  const { status, schema } = operation.success;
  if (!schema) return new Response(null, { status, headers });
  if (check) {
    // What the client will read: the value after JSON (dates as strings, undefined members gone).
    const sent = JSON.parse(JSON.stringify(value) ?? "null") as unknown;
    const result = schema.safeParse(sent);
    if (!result.success) {
      const issues = result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
      // Thrown, not answered: errorToProblem logs it as an error and answers 500, which no test lets pass.
      throw new Error(`${describe(operation)} answered JSON its success schema refuses: ${issues}`);
    }
  }
  return json(value, { status, headers });
}

function describe(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}
