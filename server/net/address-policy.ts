// Which IP addresses an outgoing connection may reach: one CIDR parser, one pure check and two profiles —
// public-only (webhooks) and LAN-allowed (cameras) — so every outgoing path judges every address the same way.
// IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo, ISATAP) are judged by that
// IPv4 address too: a translator or tunnel would deliver the packets there.
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of an operator's list: an address or CIDR, IPv4-mapped IPv6 stored as the IPv4 it means. */
export interface Network {
  text: string;
  address: Ip;
  bits: number;
}

/**
 * "public": anything globally reachable, plus what `allow` lists; `block` refuses even public addresses.
 * "lan": only what `allow` lists (the networks cameras may be in).
 * In both, a sensitive range (loopback, link-local, metadata…) opens only to an entry lying inside it, never to
 * a catch-all such as 0.0.0.0/0.
 */
export interface AddressPolicy {
  readonly profile: "public" | "lan";
  readonly allow: readonly Network[];
  readonly block: readonly Network[];
}

export const publicOnly = (allow: readonly Network[] = [], block: readonly Network[] = []): AddressPolicy => ({ profile: "public", allow, block });
export const lanAllowed = (networks: readonly Network[], block: readonly Network[] = []): AddressPolicy => ({ profile: "lan", allow: networks, block });

/** Why an address was refused: not public (or outside the camera networks), or listed by the operator. */
export type RefusalKind = "not-public" | "outside" | "blocked";
/** A refusal's `reason` is `${address} ${predicate}`, e.g. "127.0.0.1 is a loopback address". */
export type AddressVerdict = { allowed: true; address: string } | { allowed: false; address: string; kind: RefusalKind; reason: string; predicate: string };

function refused(address: string, kind: RefusalKind, predicate: string): AddressVerdict {
  return { allowed: false, address, kind, reason: `${address} ${predicate}`, predicate };
}

/** Parses "10.0.0.0/8, ::1, 192.168.1.5" (canonical spellings only); throws naming the first bad entry. */
export function parseNetworks(value: string | undefined): Network[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map(parseNetwork);
}

export function parseNetwork(text: string): Network {
  const [address = "", bitsText, extra] = text.split("/");
  const ip = isIPv4(address) || isIPv6(address) ? parseIp(address) : null;
  const max = ip?.kind() === "ipv4" ? 32 : 128;
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!ip || extra !== undefined || !(bits >= 0 && bits <= max)) throw new Error(`"${text}" is not an IP address or CIDR network`);
  const mapped = ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress();
  if (mapped && bits >= 96) return { text, address: (ip as ipaddr.IPv6).toIPv4Address(), bits: bits - 96 };
  return { text, address: ip, bits };
}

/** Ranges not reachable from the internet (IANA special-purpose registries), most specific first when matched. */
const SPECIAL: Array<[cidr: string, label: string | null, lan?: "lan"]> = [
  ["169.254.169.254/32", "a cloud metadata address"],
  ["169.254.170.2/32", "a cloud metadata address"],
  ["100.100.100.200/32", "a cloud metadata address"],
  ["168.63.129.16/32", "a cloud metadata address"],
  ["fd00:ec2::254/128", "a cloud metadata address"],
  ["0.0.0.0/8", "an unspecified address"],
  ["10.0.0.0/8", "a private network address", "lan"],
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.0.0/16", "a link-local address"],
  ["172.16.0.0/12", "a private network address", "lan"],
  ["192.0.0.0/24", "a reserved address"],
  ["192.0.2.0/24", "a documentation address"],
  ["192.88.99.0/24", "a reserved address"],
  ["192.168.0.0/16", "a private network address", "lan"],
  ["198.18.0.0/15", "a benchmarking address"],
  ["198.51.100.0/24", "a documentation address"],
  ["203.0.113.0/24", "a documentation address"],
  ["224.0.0.0/4", "a multicast address"],
  ["240.0.0.0/4", "a reserved address"],
  ["255.255.255.255/32", "a broadcast address"],
  ["::/128", "an unspecified address"],
  ["::1/128", "a loopback address"],
  // NAT64 is judged by the IPv4 address it carries; everything else outside 2000::/3 is not routed globally.
  ["64:ff9b::/96", null],
  ["64:ff9b:1::/48", "a local NAT64 address"],
  ["100::/64", "a discard-only address"],
  ["2001:2::/48", "a benchmarking address"],
  ["2001:10::/28", "a reserved address"],
  ["2001:20::/28", "a reserved address"],
  ["2001:db8::/32", "a documentation address"],
  ["3fff::/20", "a documentation address"],
  ["5f00::/16", "a reserved address"],
  ["fc00::/7", "a private network address", "lan"],
  // AWS's IPv6 metadata network sits inside fc00::/7, which camera networks usually allow.
  ["fd00:ec2::/32", "a cloud provider's internal address"],
  ["fe80::/10", "a link-local address"],
  ["fec0::/10", "a site-local address"],
  ["ff00::/8", "a multicast address"],
  ["::/3", "a reserved address"],
  ["4000::/2", "a reserved address"],
  ["8000::/1", "a reserved address"],
];

interface Special {
  network: Network;
  /** Null: globally reachable (as far as this table goes). */
  label: string | null;
  /** Private LAN ranges open to any listed network covering them; every other special range is sensitive. */
  sensitive: boolean;
}

const SPECIALS: Special[] = SPECIAL.map(([cidr, label, lan]) => ({ network: parseNetwork(cidr), label, sensitive: !lan })).sort((a, b) => b.network.bits - a.network.bits);

function contains(network: Network, ip: Ip): boolean {
  return network.address.kind() === ip.kind() && ip.match(network.address as never, network.bits);
}

/** A strict parse: canonical dotted-quad IPv4 or any IPv6 (brackets and a zone id dropped); null otherwise. */
export function parseIp(text: string): Ip | null {
  const bare = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (isIPv4(bare)) return ipaddr.IPv4.parse(bare);
  if (!isIPv6(bare)) return null;
  // Through the URL parser first: ipaddr.js reads "::127.0.0.1" as ::ffff:127.0.0.1, which it is not.
  return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
}

function v4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

interface Embedded {
  /** mapped/compatible/translated addresses are the IPv4 address; the others only carry it. */
  same: boolean;
  ipv4: ipaddr.IPv4[];
}

/** The IPv4 addresses an IPv6 address embeds, if any (RFC 4291, 6052, 6145, 3056, 4380, 5214). */
export function embeddedIpv4(ip: ipaddr.IPv6): Embedded | null {
  const p = ip.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && p[5] === 0xffff) return { same: true, ipv4: [v4(p[6]!, p[7]!)] }; // ::ffff:0:0/96 mapped
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return { same: true, ipv4: [v4(p[6]!, p[7]!)] }; // ::ffff:0:0:0/96 translated
  if (zeros(0, 6) && (p[6] !== 0 || p[7]! > 1)) return { same: true, ipv4: [v4(p[6]!, p[7]!)] }; // ::/96 compatible
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return { same: false, ipv4: [v4(p[6]!, p[7]!)] }; // 64:ff9b::/96 NAT64
  if (p[0] === 0x2002) return { same: false, ipv4: [v4(p[1]!, p[2]!)] }; // 2002::/16 6to4
  // 2001::/32 Teredo: the server's IPv4, and the client's, stored inverted.
  if (p[0] === 0x2001 && p[1] === 0) return { same: false, ipv4: [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)] };
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe) return { same: false, ipv4: [v4(p[6]!, p[7]!)] }; // ISATAP interface id
  return null;
}

function special(ip: Ip): Special | null {
  const found = SPECIALS.find((range) => contains(range.network, ip));
  return found?.label ? found : null;
}

interface Judgement {
  allowed: boolean;
  kind?: RefusalKind;
  /** A noun phrase: "a loopback address", "an address outside the allowed networks". */
  what?: string;
}

function judge(ip: Ip, policy: AddressPolicy): Judgement {
  const range = special(ip);
  const opens = (network: Network) => contains(network, ip) && (!range?.sensitive || (network.bits >= range.network.bits && contains(range.network, network.address)));
  if (policy.allow.some(opens)) return { allowed: true };
  if (policy.block.some((network) => contains(network, ip))) return { allowed: false, kind: "blocked", what: "an address the operator has blocked" };
  if (range?.sensitive || (range && policy.profile === "public")) return { allowed: false, kind: "not-public", what: range.label! };
  if (policy.profile === "lan") return { allowed: false, kind: "outside", what: "an address outside the allowed networks" };
  return { allowed: true };
}

/** Judges one IP address (canonical spelling; see parseIp). Pure: no DNS, no I/O. */
export function checkAddress(text: string, policy: AddressPolicy): AddressVerdict {
  const ip = parseIp(text);
  if (!ip) return refused(text, "outside", "is not an IP address");
  const shown = ip.toString();
  const embedded = ip.kind() === "ipv6" ? embeddedIpv4(ip as ipaddr.IPv6) : null;
  for (const inner of embedded?.ipv4 ?? []) {
    const verdict = judge(inner, policy);
    if (!verdict.allowed) return refused(shown, verdict.kind!, `embeds ${inner.toString()}, ${verdict.what!}`);
  }
  // Mapped, compatible and translated addresses are their IPv4 address: connect to that, as a socket would.
  if (embedded?.same) return { allowed: true, address: embedded.ipv4[0]!.toString() };
  const verdict = judge(ip, policy);
  if (!verdict.allowed) return refused(shown, verdict.kind!, `is ${verdict.what!}`);
  return { allowed: true, address: text.includes("%") ? `${shown}%${text.replace(/^.*%|\]$/g, "")}` : shown };
}
