// fetch for the provider calls, over node:http with a keep-alive agent. Node's built-in fetch streams a
// request body through web streams in small writes; for ~300 KB frames at many calls a second that costs
// several times the CPU of one plain write (see bench/vision.ts). Only what the Moondream client uses is
// supported: a byte body, headers, an abort signal, and a streamed response.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/**
 * An idle connection is closed after this, or 1 s before the provider's own announced `Keep-Alive: timeout=N`
 * (Node's agent heeds that hint only when it has a timeout of its own). Without it the agent kept idle connections
 * forever and reused one just as the provider closed it: the call failed (ECONNRESET) and waited out a retry's
 * backoff, hundreds of ms, which under load held up many calls at once (bench/vision.ts at 50 clients). 4 s is below
 * the usual 5 s of servers and proxies. It is the idle time of a socket: a call in flight is not cut by it.
 */
const IDLE_SOCKET_TIMEOUT_MS = 4_000;
const agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS }),
};

export function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const body = init.body;
  if (body !== undefined && body !== null && !(body instanceof Uint8Array) && typeof body !== "string") {
    return Promise.reject(new TypeError("httpFetch sends only string or byte bodies"));
  }
  const headers = Object.fromEntries(new Headers(init.headers));
  if (body !== undefined && body !== null) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(signal.reason as Error);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, { method: init.method ?? "GET", headers, agent: agents[url.protocol as "http:" | "https:"] }, (res: IncomingMessage) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, item);
      }
      const status = res.statusCode ?? 502;
      const hasBody = status !== 204 && status !== 304 && init.method !== "HEAD";
      resolve(new Response(hasBody ? (Readable.toWeb(res) as ReadableStream<Uint8Array>) : null, { status, statusText: res.statusMessage, headers: responseHeaders }));
    });
    const onAbort = () => req.destroy(signal!.reason as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal?.removeEventListener("abort", onAbort));
    req.on("error", reject); // kept for the whole exchange: a later socket error must not go unhandled
    req.end(body ?? undefined);
  });
}
