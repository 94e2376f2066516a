// Outgoing POSTs to user-supplied URLs. The address check runs inside the socket's DNS lookup, i.e. on the
// address actually connected to, so a hostname whose DNS answer changes after any earlier check (DNS
// rebinding) still can't reach a refused address. Redirects are never followed; one deadline covers it all.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { checkAddress, type AddressPolicy } from "./address-policy";

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedPostOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  headers: Record<string, string>;
  /** DNS resolution; tests substitute one whose answers change between calls. */
  lookup?: LookupAll;
  /** Bytes of response body kept (the rest is drained). */
  maxResponseBytes?: number;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Refusals and transport failures; `refused` marks policy refusals (not worth retrying). */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

// Keep-alive pools: a reused socket was checked when it connected, and every new one is checked again.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };

function guardedLookup(policy: AddressPolicy, resolve: LookupAll): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0) return callback(new OutboundError(`${hostname} has no address`));
        // Every answer must pass: otherwise a resolver could mix a public and a refused address.
        for (const answer of answers) {
          const verdict = checkAddress(answer.address, policy);
          if (!verdict.allowed) return callback(new OutboundError(`Refused: ${hostname} resolves to ${verdict.reason}`, true));
        }
        const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        if (options.all) return callback(null, wanted);
        const first = wanted[0] ?? answers[0]!;
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error),
    );
  }) as net.LookupFunction;
}

/** Checks a URL's form; connect-time checks still apply. Returns a reason, or null when acceptable. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http:// and https:// URLs are allowed";
  if (url.username || url.password) return "URLs with a user name or password are not allowed";
  return null;
}

export function guardedPost(rawUrl: string, body: string, options: GuardedPostOptions): Promise<GuardedResponse> {
  const problem = urlProblem(rawUrl);
  if (problem) return Promise.reject(new OutboundError(problem, true));
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // Literal addresses skip DNS lookup entirely, so they are judged here.
  if (net.isIP(host)) {
    const verdict = checkAddress(host, options.policy);
    if (!verdict.allowed) return Promise.reject(new OutboundError(`Refused: ${verdict.reason}`, true));
  }
  const client = url.protocol === "https:" ? https : http;
  const limit = options.maxResponseBytes ?? 4096;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        agent: url.protocol === "https:" ? agents.https : agents.http,
        lookup: guardedLookup(options.policy, options.lookup ?? systemLookup),
        headers: { ...options.headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < limit) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8").slice(0, limit) });
        });
        response.on("error", (error) => {
          clearTimeout(timer);
          reject(new OutboundError(error.message));
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new OutboundError(`No answer within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error instanceof OutboundError ? error : new OutboundError(describe(error)));
    });
    request.end(body);
  });
}

function describe(error: Error & { code?: string }): string {
  if (error.code === "ECONNREFUSED") return "Connection refused";
  if (error.code === "ENOTFOUND") return "Host not found";
  if (error.code === "ECONNRESET") return "Connection reset";
  return error.message || error.code || "Network error";
}
