// Host names as a URL parser reads them, so a Host header and a configured name compare alike.
import { BlockList, isIP } from "node:net";

/** A host with an optional port as the URL parser reads it; null when the text is no host at all. */
export function parseHost(text: string): URL | null {
  const trimmed = text.trim();
  if (!trimmed || /[/?#@\s\\]/.test(trimmed)) return null;
  try {
    return new URL(`http://${trimmed}/`);
  } catch {
    return null;
  }
}

/**
 * hostNameOf's answers by text. Every request's Host header is checked (allowed-hosts.ts, client-ip.ts), twice, and
 * parsing it as a URL was ~2 % of a small API request's CPU (bench/foundation.ts); the answer depends on the text alone.
 */
const hostNames = new Map<string, string | undefined>();

/**
 * "Studio.Example.com:443" → "studio.example.com", "[::1]:3000" → "[::1]", "localhost." → "localhost";
 * undefined when the text is no host at all. IPv4 spellings are normalised too ("2130706433" → "127.0.0.1").
 */
export function hostNameOf(text: string): string | undefined {
  let known = hostNames.get(text);
  if (known === undefined && !hostNames.has(text)) {
    known = parseHost(text)?.hostname.replace(/\.$/, "") || undefined;
    // Host headers come from clients: a bounded memory of short ones, started afresh when full.
    if (text.length <= 255) {
      if (hostNames.size >= 1024) hostNames.clear();
      hostNames.set(text, known);
    }
  }
  return known;
}

/** "[::1]" → "::1": an IPv6 host name without the brackets URLs put around it. */
export function unbracketed(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Whether a host name (as hostNameOf returns it) is an IP address rather than a DNS name. */
export function isIpHostName(hostname: string): boolean {
  return isIP(unbracketed(hostname)) !== 0;
}

/** Names that always mean this machine: loopback addresses, and localhost (which browsers never look up in DNS). */
export function isLoopbackHostName(hostname: string): boolean {
  return hostname === "localhost" || isLoopbackAddress(unbracketed(hostname));
}

/** localhost and its subdomains (RFC 6761 §6.3), in any case, with or without the root's dot: loopback, never asked of DNS. */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** 127.0.0.0/8 and ::1, in any spelling, IPv4-mapped IPv6 (how a dual-stack socket reports 127.0.0.1) included. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  // A valid IPv4 address in 127.0.0.0/8 is one whose first octet is 127 (isIP accepts only dotted decimal). Checked
  // by hand: BlockList.check makes a SocketAddress each time, a measurable cost on every request (two calls each).
  if (family === 4) return address.startsWith("127.");
  return family === 6 && (address === "::1" || loopback.check(address, "ipv6"));
}
