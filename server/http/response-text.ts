// Responses made from a string (JSON and problem JSON, nearly every API answer) keep that string, so the request
// handler writes it to the socket in one call instead of reading it back out of the Response's web stream (which
// cost more CPU than making it, bench/vision.ts). Nor is that stream made unless someone reads the body: Node's
// Response wraps a string body in a ReadableStream (with its controller, promises and a finalization registration),
// ~30 µs a response on this machine, about a tenth of a small API request's CPU (bench/foundation.ts). The Response
// is an ordinary one in every other respect: anyone may still read its body, and Content-Length is set from the text.

/** A Response whose body is a string, turned into a real Response's stream only when something reads it. */
class TextResponse extends Response {
  readonly #text: string;
  /** The same answer as a plain Response, made on the first read of the body. */
  #read: Response | undefined;

  constructor(text: string, init: { status?: number; statusText?: string; headers: Headers }) {
    // What Response does for a string body without a type.
    if (!init.headers.has("Content-Type")) init.headers.set("Content-Type", "text/plain;charset=UTF-8");
    super(null, init);
    this.#text = text;
  }

  static textOf(response: Response): string | undefined {
    return #text in response ? response.#text : undefined;
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

export function textResponse(text: string, init: { status?: number; statusText?: string; headers: Headers }): Response {
  init.headers.set("Content-Length", String(Buffer.byteLength(text)));
  return new TextResponse(text, init);
}

/** The text a Response was made from by textResponse, or undefined for any other Response. */
export function responseText(response: Response): string | undefined {
  return TextResponse.textOf(response);
}
