// Which camera addresses the relay may talk to. The server sits inside someone's network, so a PTZ
// "camera" must be inside the configured networks (private LAN ranges by default), and loopback,
// link-local (cloud metadata lives at 169.254.169.254) and the like only when a network listed names them.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { Network } from "../config";
import { PtzError } from "./driver";

/** Ranges never reachable through a broad allowance such as 0.0.0.0/0; only a listed network inside them opens them. */
const SENSITIVE: Network[] = [
  { address: "0.0.0.0", prefix: 8, family: "ipv4" },
  { address: "127.0.0.0", prefix: 8, family: "ipv4" },
  { address: "169.254.0.0", prefix: 16, family: "ipv4" },
  { address: "100.64.0.0", prefix: 10, family: "ipv4" },
  { address: "224.0.0.0", prefix: 4, family: "ipv4" },
  { address: "240.0.0.0", prefix: 4, family: "ipv4" },
  { address: "::", prefix: 128, family: "ipv6" },
  { address: "::1", prefix: 128, family: "ipv6" },
  { address: "fe80::", prefix: 10, family: "ipv6" },
  { address: "ff00::", prefix: 8, family: "ipv6" },
  // AWS's IPv6 metadata endpoint sits inside fc00::/7, which the default list allows.
  { address: "fd00:ec2::", prefix: 32, family: "ipv6" },
];

function blockList(networks: Network[]): BlockList {
  const list = new BlockList();
  for (const network of networks) list.addSubnet(network.address, network.prefix, network.family);
  return list;
}

export class AddressPolicy {
  private readonly allowed: BlockList;
  private readonly sensitive = blockList(SENSITIVE);
  private readonly sensitiveAllowed: BlockList;

  constructor(networks: Network[]) {
    this.allowed = blockList(networks);
    // A listed network opens a sensitive range only when it lies inside that range (e.g. 127.0.0.0/8 for tests).
    this.sensitiveAllowed = blockList(networks.filter((network) => SENSITIVE.some((range) => range.family === network.family && network.prefix >= range.prefix && this.sensitive.check(network.address, network.family))));
  }

  isAllowed(address: string): boolean {
    const ip = unmapped(address);
    const family = isIP(ip) === 4 ? "ipv4" : isIP(ip) === 6 ? "ipv6" : undefined;
    if (!family) return false;
    if (!this.allowed.check(ip, family)) return false;
    return !this.sensitive.check(ip, family) || this.sensitiveAllowed.check(ip, family);
  }

  /** Resolves a host once and returns the allowed address to connect to (pinned, so rebinding cannot swap it). */
  async resolve(host: string): Promise<string> {
    let address = host.replace(/^\[|\]$/g, "");
    if (!isIP(address)) {
      try {
        address = (await lookup(address, { verbatim: true })).address;
      } catch {
        throw new PtzError("unreachable", `The camera address ${host} could not be resolved`);
      }
    }
    address = unmapped(address);
    if (!this.isAllowed(address)) {
      throw new PtzError("refused", `The camera address ${host} is outside the networks this server may control (PTZ_ALLOWED_NETWORKS)`);
    }
    return address;
  }
}

/** ::ffff:a.b.c.d is IPv4 in disguise; judge it as the IPv4 address. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}
