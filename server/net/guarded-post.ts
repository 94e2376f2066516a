// Outgoing POSTs to user-supplied URLs. The address check runs inside the socket's DNS lookup, i.e. on the
// address actually connected to, so a hostname whose DNS answer changes after any earlier check (DNS
// rebinding) still can't reach a refused address. Redirects are never followed; one deadline covers it all.
import type dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { urlToHttpOptions } from "node:url";
import type { AddressPolicy } from "./address-policy";
import { AddressRefused, answersFor, canonicalHost, judgeAnswers, localAnswers, systemLookup, type LookupAll } from "./resolve";

export type { LookupAll } from "./resolve";

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

// Keep-alive pools: a reused socket was checked when it connected, and every new one is checked again.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };

// One lookup function per policy and resolver, made once: a delivery run sends thousands of POSTs with the same pair.
const lookups = new WeakMap<AddressPolicy, WeakMap<LookupAll, LookupFunction>>();

function guardedLookup(policy: AddressPolicy, resolve: LookupAll): LookupFunction {
  let byResolver = lookups.get(policy);
  if (!byResolver) lookups.set(policy, (byResolver = new WeakMap()));
  let lookup = byResolver.get(resolve);
  if (!lookup) byResolver.set(resolve, (lookup = makeLookup(policy, resolve)));
  return lookup;
}

function makeLookup(policy: AddressPolicy, resolve: LookupAll): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    answersFor(hostname, resolve).then(
      (found) => {
        let answers: { address: string; family: number }[];
        try {
          // The checked addresses are the ones connected to (an IPv4-mapped answer as its IPv4 address).
          answers = judgeAnswers(hostname, found, policy).map(({ address }) => ({ address, family: isIP(address.replace(/%.*$/, "")) }));
        } catch (error) {
          if (error instanceof AddressRefused) return callback(new OutboundError(`Refused: ${error.reason}`, true));
          return callback(new OutboundError(`${hostname} has no address`));
        }
        const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        if (options.all) return callback(null, wanted);
        const first = wanted[0] ?? answers[0]!;
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error),
    );
  }) as LookupFunction;
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

/** Why a URL whose host needs no DNS (an IP address, a localhost name) is refused; null otherwise. */
export function refusedLiteral(url: URL, policy: AddressPolicy): string | null {
  const host = canonicalHost(url.hostname);
  if (host === null) return `${url.hostname} is not a host name or IP address`;
  const answers = localAnswers(host);
  try {
    if (answers) judgeAnswers(host, answers, policy);
  } catch (error) {
    if (error instanceof AddressRefused) return error.reason;
    throw error;
  }
  return null;
}

/** A URL as checked before connecting: its request options (host, port, path, agent), or why it is refused. */
type Target = { request: http.RequestOptions; https: boolean; refusal: null } | { request: null; refusal: string };

// The checks before connecting depend only on the URL and the policy (an immutable object), and a delivery run
// posts to the same few URLs thousands of times: remember them per policy. Connect-time checks still run.
const targets = new WeakMap<AddressPolicy, Map<string, Target>>();

function target(rawUrl: string, policy: AddressPolicy): Target {
  let known = targets.get(policy);
  if (!known) targets.set(policy, (known = new Map()));
  let found = known.get(rawUrl);
  if (!found) {
    const problem = urlProblem(rawUrl);
    // Literal addresses skip DNS lookup entirely, so they are judged here.
    const literal = problem === null ? refusedLiteral(new URL(rawUrl), policy) : null;
    found = problem !== null ? { request: null, refusal: problem } : literal !== null ? { request: null, refusal: `Refused: ${literal}` } : requestTarget(new URL(rawUrl));
    if (known.size >= 1_000) known.clear();
    known.set(rawUrl, found);
  }
  return found;
}

function requestTarget(url: URL): Target {
  const secure = url.protocol === "https:";
  return { request: { ...urlToHttpOptions(url), method: "POST", agent: secure ? agents.https : agents.http }, https: secure, refusal: null };
}

export function guardedPost(rawUrl: string, body: string, options: GuardedPostOptions): Promise<GuardedResponse> {
  const checked = target(rawUrl, options.policy);
  if (checked.request === null) return Promise.reject(new OutboundError(checked.refusal, true));
  const client = checked.https ? https : http;
  const limit = options.maxResponseBytes ?? 4096;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        ...checked.request,
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
