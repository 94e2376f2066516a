// The shape of one API operation in the catalogue: method, path, input and output schemas, who may call it and
// which problems it documents. The catalogue (./index.ts) is isomorphic: the server's routes validate with it, the
// OpenAPI document is generated from it, and the browser's typed client (app/lib/api/call.ts) is typed by it.
import { z } from "zod";

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Access = "public" | "user" | "admin";

export interface Operation {
  method: Method;
  /** OpenAPI path, parameters as {id}. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * A multipart/form-data body instead of JSON (an upload): the schema of its fields, files as `formFile()`. It is
   * read only after the caller's access is checked, within the handler's `bodyLimit`.
   */
  form?: z.ZodObject;
  /** Success status and its JSON schema; null schema means no body (204) or a binary/text body (contentType). */
  success: { status: number; schema: z.ZodType | null; description?: string; contentType?: string };
  /** Problem statuses this operation answers beyond the usual 401/403 of its access level. */
  errors?: number[];
}

/** Keeps the literal path and schema types, so the client can type an operation's params, input and output. */
export function defineOperation<const O extends Operation>(operation: O): O {
  return operation;
}

/**
 * What each path parameter may be: an `{id}` is a UUID (any case; handlers get it in lower case), a contact's
 * `{channel}` is email or sms. Anything else names no row, so the server answers 404.
 */
export const pathParamSchemas = {
  id: z.guid().transform((id) => id.toLowerCase()),
  channel: z.enum(["email", "sms"]),
};

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** `{ id: string }` for "/api/stories/{id}"; `{}` for a path without parameters. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };
/** What a successful call yields: the parsed JSON, or nothing (204, binary and text bodies are fetched as URLs). */
export type OperationOutput<O extends Operation> = O["success"]["schema"] extends z.ZodType ? z.output<O["success"]["schema"]> : void;

/** A file part of a multipart body, as the server reads it: its bytes are a view of the body (no copy). */
export interface FormFile {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** A form's file field: documented as binary in OpenAPI; a part with no file chosen counts as missing. */
export const formFile = (description: string, missing: string) =>
  z
    .custom<FormFile>((value) => typeof value === "object" && value !== null && (value as FormFile).bytes instanceof Uint8Array && (value as FormFile).bytes.byteLength > 0, {
      error: missing,
    })
    .meta({ type: "string", format: "binary", description });

export const image = (what: string) => ({
  status: 200,
  schema: null,
  contentType: "image/*",
  description: `${what} bytes (ETag, Cache-Control: private, max-age=31536000, immutable; 304 on If-None-Match)`,
});
export const noContent = { status: 204, schema: null };
/**
 * Every call that reaches Moondream: bad input, the user's free calls used up (402), frames too large or unreadable,
 * 429 (the key's queue is full or a `priority: "loop"` call would have to wait; the provider's own rate limit; the
 * shared key's daily pool spent), and provider failures.
 */
export const aiErrors = [400, 402, 413, 422, 429, 502, 504];
/** Bad input, an address outside PTZ_ALLOWED_NETWORKS or a port outside PTZ_ALLOWED_PORTS, {cameraId} not one of the user's PTZ IP cameras, an unsupported command, wrong camera credentials, an unreachable camera. */
export const ptzErrors = [400, 403, 404, 501, 502, 504];

export const signedLinkQuerySchema = z.object({
  owner: z.string().optional().describe("signed link: the owner's id"),
  expires: z.string().optional().describe("signed link: Unix seconds"),
  signature: z.string().optional().describe("signed link: HMAC; the link needs no session"),
});
