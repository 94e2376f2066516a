// Responses made from a string (JSON and problem JSON, nearly every API answer) keep that string, so the request
// handler writes it to the socket in one call instead of reading it back out of the Response's web stream (which
// cost more CPU than making it, bench/vision.ts). The Response is an ordinary one in every other respect: anyone
// may still read its body, and Content-Length is set from the text.
const TEXT = Symbol("response text");

export function textResponse(text: string, init: { status?: number; statusText?: string; headers: Headers }): Response {
  init.headers.set("Content-Length", String(Buffer.byteLength(text)));
  const response = new Response(text, init);
  Object.defineProperty(response, TEXT, { value: text });
  return response;
}

/** The text a Response was made from by textResponse, or undefined for any other Response. */
export function responseText(response: Response): string | undefined {
  return (response as Response & { [TEXT]?: string })[TEXT];
}
