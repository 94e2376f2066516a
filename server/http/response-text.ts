// Responses made from a string (JSON and problem JSON, nearly every API answer) keep that string, so the request
// handler writes it to the socket in one call instead of reading it back out of the Response's web stream (which
// cost more CPU than making it, bench/vision.ts). Nor is that stream made unless someone reads the body: Node's
// Response wraps a string body in a ReadableStream (with its controller, promises and a finalization registration),
// ~30 µs a response on this machine, about a tenth of a small API request's CPU (bench/foundation.ts). The Response
// is an ordinary one in every other respect: anyone may still read its body, and Content-Length is set from the text.
//
// Nor are its headers put in a Headers object when they are a plain list (json() and problem() without extra
// headers): undici's Headers validates and normalises every field, and iterating it sorts them; a JSON answer made
// two of them. The list is kept as Headers would give it back (lower-case names, sorted) and put in the real Headers
// only when something reads `headers`; the request handler writes it as it is.

/** Header fields as `[...headers]` lists them: lower-case names, in code-point order, one entry per name. */
export type HeaderFields = ReadonlyArray<readonly [name: string, value: string]>;

/** A Response whose body is a string, turned into a real Response's stream only when something reads it. */
class TextResponse extends Response {
  readonly #text: string;
  /** The same answer as a plain Response, made on the first read of the body. */
  #read: Response | undefined;

  /** The header fields not yet put in `headers` (see HeaderFields). */
  #fields: HeaderFields | undefined;

  constructor(text: string, init: { status?: number; statusText?: string; headers: Headers | HeaderFields }) {
    const { headers } = init;
    if (headers instanceof Headers) {
      // What Response does for a string body without a type.
      if (!headers.has("Content-Type")) headers.set("Content-Type", "text/plain;charset=UTF-8");
      super(null, { status: init.status, statusText: init.statusText, headers });
    } else {
      super(null, { status: init.status, statusText: init.statusText });
      this.#fields = headers;
    }
    this.#text = text;
  }

  static textOf(response: Response): string | undefined {
    return #text in response ? response.#text : undefined;
  }

  static fieldsOf(response: Response): HeaderFields | undefined {
    return #text in response ? response.#fields : undefined;
  }

  override get headers(): Headers {
    const headers = super.headers;
    if (this.#fields) {
      for (const [name, value] of this.#fields) headers.append(name, value);
      this.#fields = undefined;
    }
    return headers;
  }

  #reader(): Response {
    this.#read ??= new Response(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#read;
  }

  override get body(): Response["body"] {
    return this.#reader().body;
  }
  override get bodyUsed(): boolean {
    return this.#read?.bodyUsed ?? false;
  }
  override text(): Promise<string> {
    return this.#reader().text();
  }
  override json(): Promise<unknown> {
    return this.#reader().json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#reader().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#reader().blob();
  }
  override formData(): Promise<FormData> {
    return this.#reader().formData();
  }
  override bytes(): ReturnType<Response["bytes"]> {
    return this.#reader().bytes();
  }
  override clone(): Response {
    return this.#reader().clone();
  }
}

/**
 * A text answer. `headers` is a Headers object, or the fields as a record of lower-case names (at least a
 * content-type, never a content-length; a constant, as json()'s and problem()'s are), kept as a list until read.
 * Content-Length is added either way.
 */
export function textResponse(text: string, init: { status?: number; statusText?: string; headers: Headers | Record<string, string> }): Response {
  const length = String(Buffer.byteLength(text));
  const { headers } = init;
  if (headers instanceof Headers) {
    headers.set("Content-Length", length);
    return new TextResponse(text, { ...init, headers });
  }
  let sorted = sortedFields.get(headers);
  if (!sorted) sortedFields.set(headers, (sorted = Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1))));
  // The sorted fields with content-length in its place.
  const at = sorted.findIndex(([name]) => name > "content-length");
  const fields: Array<readonly [string, string]> = at === -1 ? [...sorted, ["content-length", length]] : [...sorted.slice(0, at), ["content-length", length], ...sorted.slice(at)];
  return new TextResponse(text, { status: init.status, statusText: init.statusText, headers: fields });
}

/** The records of fields json() and problem() use on every answer, sorted once. */
const sortedFields = new WeakMap<Record<string, string>, Array<[string, string]>>();

/** The text a Response was made from by textResponse, or undefined for any other Response. */
export function responseText(response: Response): string | undefined {
  return TextResponse.textOf(response);
}

/** A text answer's header fields as `[...response.headers]` would list them, or undefined once they are in its Headers (read them there). */
export function responseFields(response: Response): HeaderFields | undefined {
  return TextResponse.fieldsOf(response);
}
