// Outgoing POSTs to user-supplied URLs. The address check runs inside the socket's DNS lookup, i.e. on the
// address actually connected to, so a hostname whose DNS answer changes after any earlier check (DNS
// rebinding) still can't reach a refused address. Redirects are never followed; one deadline covers it all.
// The client is undici's (keep-alive pools, its handler interface): webhook delivery is thousands of POSTs a
// second at most, and node:http cost about twice the CPU per POST (30 against 17 µs, signing included).
import type dns from "node:dns";
import type http from "node:http";
import { isIP, type LookupFunction } from "node:net";
import { Agent } from "undici";
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

/** A URL as checked before connecting, or why it is refused. */
type Target = { url: URL; refusal: null } | { url: null; refusal: string };

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
    found = problem !== null ? { url: null, refusal: problem } : literal !== null ? { url: null, refusal: `Refused: ${literal}` } : { url: new URL(rawUrl), refusal: null };
    if (known.size >= 1_000) known.clear();
    known.set(rawUrl, found);
  }
  return found;
}

// Keep-alive pools, one per lookup function, since the lookup is where each new connection's address is checked: a
// reused connection was checked when it connected.
const pools = new WeakMap<LookupFunction, Agent>();

function poolFor(lookup: LookupFunction): Agent {
  let pool = pools.get(lookup);
  // No timeouts of its own: one deadline (below) covers connecting, sending and reading.
  if (!pool) pools.set(lookup, (pool = new Agent({ connections: 64, headersTimeout: 0, bodyTimeout: 0, connect: { lookup } })));
  return pool;
}

export function guardedPost(rawUrl: string, body: string, options: GuardedPostOptions): Promise<GuardedResponse> {
  const checked = target(rawUrl, options.policy);
  if (checked.url === null) return Promise.reject(new OutboundError(checked.refusal, true));
  const { url } = checked;
  const limit = options.maxResponseBytes ?? 4096;
  const pool = poolFor(guardedLookup(options.policy, options.lookup ?? systemLookup));
  return new Promise((resolve, reject) => {
    let abort: ((reason?: Error) => void) | null = null;
    let timedOut = false;
    let status = 0;
    let headers: http.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const late = () => new OutboundError(`No answer within ${Math.round(options.timeoutMs / 1000)} s`);
    const timer = setTimeout(() => {
      timedOut = true;
      // Not on a connection yet: settle now; onConnect aborts it before a byte is sent.
      if (abort) abort(late());
      else reject(late());
    }, options.timeoutMs);
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(timedOut ? late() : outboundError(error));
    };
    // undici's own handler interface: no stream or promise per request, and abort() for the deadline.
    try {
      pool.dispatch(
        { origin: url.origin, path: url.pathname + url.search, method: "POST", headers: options.headers, body },
        {
          onConnect(abortRequest) {
            abort = abortRequest;
            if (timedOut) abortRequest(late());
          },
          onHeaders(statusCode, rawHeaders) {
            status = statusCode;
            headers = parseHeaders(rawHeaders);
            return true;
          },
          onData(chunk) {
            if (size < limit) chunks.push(chunk);
            size += chunk.length;
            return true;
          },
          onComplete() {
            clearTimeout(timer);
            resolve({ status, headers, body: chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8").slice(0, limit) });
          },
          onError: fail,
        },
      );
    } catch (error) {
      fail(error); // options undici refused outright
    }
  });
}

function parseHeaders(raw: Buffer[] | string[] | null): http.IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; raw && i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString().toLowerCase();
    const value = raw[i + 1]!.toString();
    const seen = headers[name];
    headers[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return headers;
}

/** A refusal from the lookup as it was made; anything else as a transport failure a person can read. */
function outboundError(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  return new OutboundError(describe(error as Error & { code?: string }));
}

function describe(error: Error & { code?: string }): string {
  if (error.code === "ECONNREFUSED") return "Connection refused";
  if (error.code === "ENOTFOUND") return "Host not found";
  if (error.code === "ECONNRESET" || error.code === "UND_ERR_SOCKET") return "Connection reset";
  return error.message || error.code || "Network error";
}
