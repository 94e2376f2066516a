// From what a user typed to the address to connect to: the host is read the way a URL parser reads it (so
// 2130706433, 0177.0.0.1, 0x7f.1, 127.1, "127.0.0.1." and full-width digits are all 127.0.0.1), resolved once,
// and every answer judged by the policy. Callers connect to the address returned, never to the name again.
import dns from "node:dns";
import { isIP } from "node:net";
import { checkAddress, type AddressPolicy, type AddressVerdict, type RefusalKind } from "./address-policy";
import { isLocalhostName, parseHost, unbracketed } from "./host-name";

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

/**
 * The system's resolver, except for the special-use "invalid" names (RFC 6761 §6.4), which never resolve: resolver
 * libraries should answer them "not found" at once, without asking a DNS server, and so does this one.
 */
export const systemLookup: LookupAll = async (hostname) => {
  if (/(^|\.)invalid\.?$/i.test(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
};

/** The policy refused the host (or one of its addresses). */
export class AddressRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "AddressRefused";
  }
}

/** The host could not be resolved (no such name, no answer). */
export class HostUnresolved extends Error {
  constructor(readonly host: string) {
    super(`${host} could not be resolved`);
    this.name = "HostUnresolved";
  }
}

/**
 * The host as a URL parser reads it: IPv4 in any spelling becomes a dotted quad, IPv6 loses its brackets,
 * names become lower-case ASCII (IDNA). Null for anything that is not a bare host (ports, paths, user info).
 */
export function canonicalHost(raw: string): string | null {
  const text = raw.trim();
  const bare = unbracketed(text);
  // A zone id ("fe80::1%eth0") is no part of URL syntax; keep it, the address is judged without it.
  if (isIP(bare.replace(/%[\w.-]+$/, "")) === 6) return bare;
  const url = parseHost(text);
  return url && url.port === "" ? unbracketed(url.hostname) : null;
}

type Answer = { address: string; family: number };

/** What a host stands for without asking DNS: itself when it is an address, loopback for localhost names. */
export function localAnswers(host: string): Answer[] | null {
  const family = isIP(host.replace(/%[\w.-]+$/, ""));
  if (family) return [{ address: host, family }];
  if (isLocalhostName(host)) return [{ address: "127.0.0.1", family: 4 }];
  return null;
}

/** What the host stands for: its local answers, else its DNS answers (all of them). */
export async function answersFor(host: string, lookup: LookupAll = systemLookup): Promise<Answer[]> {
  return localAnswers(host) ?? lookup(host);
}

/** Every answer must pass: otherwise a resolver could mix a public and a refused address. Returns the verdicts. */
export function judgeAnswers(host: string, answers: { address: string }[], policy: AddressPolicy): Extract<AddressVerdict, { allowed: true }>[] {
  if (answers.length === 0) throw new HostUnresolved(host);
  return answers.map(({ address }) => {
    const verdict = checkAddress(address, policy);
    if (!verdict.allowed)
      throw new AddressRefused(verdict.kind, isIP(host.replace(/%[\w.-]+$/, "")) ? verdict.reason : `${host} resolves to ${verdict.address}, which ${verdict.predicate}`);
    return verdict;
  });
}

/** Resolves a host once and returns the allowed address to connect to. Throws AddressRefused or HostUnresolved. */
export async function resolveAllowed(raw: string, policy: AddressPolicy, lookup: LookupAll = systemLookup): Promise<string> {
  const host = canonicalHost(raw);
  if (host === null) throw new AddressRefused("outside", `${raw} is not a host name or IP address`);
  let answers: Answer[];
  try {
    answers = await answersFor(host, lookup);
  } catch {
    throw new HostUnresolved(host);
  }
  return judgeAnswers(host, answers, policy)[0]!.address;
}
