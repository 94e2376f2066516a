// Which IP addresses an outgoing request may connect to. One pure function over an address and two CIDR
// lists, so webhooks (default: public unicast only) and camera control (default: private networks allowed)
// share the same rules and differ only in their lists.
import ipaddr from "ipaddr.js";

export interface AddressPolicy {
  /** CIDRs (or single addresses) let through even when they fall in a blocked range, e.g. "127.0.0.1/32". */
  allow: readonly string[];
  /** CIDRs refused even when public. */
  block?: readonly string[];
  /** Refuse every non-public range (loopback, private, link-local, CGNAT, multicast, reserved…). Default true. */
  blockNonPublic?: boolean;
}

export type AddressVerdict = { allowed: true; address: string } | { allowed: false; address: string; reason: string };

/** ipaddr.js range names and how a person would call them. Everything but "unicast" is non-public. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private network address",
  reserved: "a reserved address",
  uniqueLocal: "a private network address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "an IPv4-embedded address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "a benchmarking address",
  amt: "an AMT address",
  as112v4: "an AS112 address",
  as112v6: "an AS112 address",
  deprecated: "a deprecated address",
  orchid2: "an ORCHIDv2 address",
  droneRemoteIdProtocolEntityTags: "a reserved address",
};

/** Cloud metadata services answer here; named apart so the reason is clear. */
const METADATA = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"];

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseCidr(entry: string): Cidr {
  const trimmed = entry.trim();
  if (trimmed.includes("/")) {
    const [address, bits] = ipaddr.parseCIDR(trimmed);
    return [normalise(address), address.kind() === "ipv6" && normalise(address).kind() === "ipv4" ? bits - 96 : bits];
  }
  const address = normalise(ipaddr.parse(trimmed));
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it reaches. */
function normalise(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

// Lists come from config, so the set of entries is small and fixed; parsing them on every check was a
// measurable share of each webhook delivery.
const parsedCidrs = new Map<string, Cidr>();

function cachedCidr(entry: string): Cidr {
  let parsed = parsedCidrs.get(entry);
  if (!parsed) {
    parsed = parseCidr(entry);
    if (parsedCidrs.size >= 1024) parsedCidrs.clear(); // bound it should a caller pass ever-new lists
    parsedCidrs.set(entry, parsed);
  }
  return parsed;
}

function inAny(address: ipaddr.IPv4 | ipaddr.IPv6, cidrs: readonly string[]): boolean {
  return cidrs.some((entry) => {
    const [range, bits] = cachedCidr(entry);
    return range.kind() === address.kind() && address.match(range as never, bits);
  });
}

/** Throws when a list entry is not an address or CIDR (config validation calls this). */
export function assertCidrList(entries: readonly string[]): void {
  for (const entry of entries) parseCidr(entry);
}

/** Judges one resolved address. Pure: no DNS, no I/O. */
export function checkAddress(text: string, policy: AddressPolicy): AddressVerdict {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return { allowed: false, address: text, reason: "not an IP address" };
  const address = normalise(ipaddr.parse(bare));
  const shown = address.toString();
  if (inAny(address, policy.allow)) return { allowed: true, address: shown };
  if (policy.block && inAny(address, policy.block)) return { allowed: false, address: shown, reason: `${shown} is blocked by the operator` };
  if (policy.blockNonPublic ?? true) {
    if (METADATA.includes(shown)) return { allowed: false, address: shown, reason: `${shown} is a cloud metadata address` };
    const range = address.range();
    if (range !== "unicast") return { allowed: false, address: shown, reason: `${shown} is ${RANGE_NAMES[range] ?? `a ${range} address`}` };
  }
  return { allowed: true, address: shown };
}
