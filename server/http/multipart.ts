// Reads a multipart/form-data body (an upload: a model file and a few text fields) into one buffer, and splits it
// into fields and files where they lie: a file's bytes are a view of that buffer, never copied, so a 200 MB upload
// costs 200 MB once. (Request.formData() would hold it three times over: the body, a Blob of the file, its
// arrayBuffer.) Refused as 413 before it is read when the declared length is too large, and while it is read
// when the bytes sent are.
import type { z } from "zod";
import type { FormFile } from "#app/schemas/operations/define";
import { ProblemError } from "../errors";
import { validationProblem } from "./problem";

export type FormValues = Record<string, string | FormFile>;

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");

function tooLargeUpload(limit: number): ProblemError {
  return new ProblemError(413, `The upload is larger than ${Math.round(limit / 1024 / 1024)} MB`);
}

/** The form read and checked against its schema: 400 with `errors` per field, as for a JSON body. */
export async function readForm<S extends z.ZodObject>(request: Request, schema: S, limit: number): Promise<z.output<S>> {
  const values = await readMultipart(request, limit);
  for (const [name, value] of Object.entries(values)) {
    // PostgreSQL text cannot hold U+0000 (as for JSON bodies, api.ts parseInput; a file's bytes are not text).
    if (typeof value === "string" && value.includes("\u0000")) {
      throw new ProblemError(400, "Text must not contain NUL characters (\\u0000)", { errors: { [name]: ["must not contain NUL characters"] } });
    }
  }
  const result = schema.safeParse(values);
  if (!result.success) throw validationProblem(result.error);
  return result.data;
}

/** The form's fields (text as strings, files as FormFile); a field sent twice keeps its first value. */
export async function readMultipart(request: Request, limit: number): Promise<FormValues> {
  const boundary = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(request.headers.get("content-type") ?? "");
  if (!boundary) throw new ProblemError(415, "Send the upload as multipart/form-data");
  const body = await readBody(request, limit);
  return splitParts(body, boundary[1] ?? boundary[2]!);
}

async function readBody(request: Request, limit: number): Promise<Buffer> {
  const header = request.headers.get("content-length");
  const declared = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (declared !== null && declared > limit) throw tooLargeUpload(limit);
  if (!request.body) return Buffer.alloc(0);
  // With a declared length, one buffer of that size is filled as the bytes come (no chunk list, no concatenation).
  let body = declared !== null ? Buffer.allocUnsafe(declared) : null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      throw new ProblemError(499, "The request was cancelled before its body arrived");
    }
    if (read.done) break;
    const chunk = read.value;
    if (size + chunk.byteLength > limit || (body && size + chunk.byteLength > body.length)) {
      await reader.cancel().catch(() => {});
      throw tooLargeUpload(limit);
    }
    if (body) body.set(chunk, size);
    else chunks.push(chunk);
    size += chunk.byteLength;
  }
  body = body ? body.subarray(0, size) : Buffer.concat(chunks);
  return body;
}

const unreadable = (why: string) => new ProblemError(400, `The form could not be read: ${why}`);

function splitParts(body: Buffer, boundary: string): FormValues {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  if (body.indexOf(delimiter) !== 0) throw unreadable("it does not start with its boundary");
  const values: FormValues = {};
  let at = delimiter.length;
  for (;;) {
    // After a delimiter: "--" closes the form, CRLF starts a part.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return values;
    if (body.indexOf(CRLF, at) !== at) throw unreadable("a boundary is not followed by a line break");
    const headersEnd = body.indexOf(HEADERS_END, at);
    if (headersEnd < 0) throw unreadable("a part's headers do not end");
    const headers = body.toString("utf8", at + 2, headersEnd);
    const contentStart = headersEnd + HEADERS_END.length;
    const contentEnd = body.indexOf(next, contentStart);
    if (contentEnd < 0) throw unreadable("the last part is not closed by the boundary");
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(headers)?.[1] ?? "";
    const name = parameter(disposition, "name");
    const filename = parameter(disposition, "filename");
    if (name === null) throw unreadable("a part has no name");
    if (!(name in values)) {
      const content = body.subarray(contentStart, contentEnd);
      values[name] =
        filename === null ? content.toString("utf8") : { filename, type: /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? "application/octet-stream", bytes: content };
    }
    at = contentEnd + next.length;
  }
}

/** A Content-Disposition parameter (name="model", filename="yolo.onnx"), quoted or not; null when absent. */
function parameter(disposition: string, key: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(disposition);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!;
}
