// DNS-rebinding defence: every request must name this server by a host the operator knows, before anything
// else looks at it. A hostile page whose domain is re-pointed at a LAN or loopback address makes the browser
// send its own domain as Host (and as Origin, so the CSRF check alone would pass); such requests get 421.
import os from "node:os";
import type { NextFunction, Request, Response } from "express";
import { config } from "../config";
import { hostNameOf, isIpHostName, isLoopbackHostName } from "../net/host-name";
import { problemBody } from "./problem";

interface KnownHosts {
  any: boolean;
  names: Set<string>;
  localhost: boolean;
}

let known: KnownHosts | undefined;

function knownHosts(): KnownHosts {
  if (known) return known;
  const { allowedHosts, publicUrl, host } = config();
  const names = new Set(allowedHosts.filter((name) => name !== "*"));
  if (publicUrl) names.add(hostNameOf(new URL(publicUrl).host)!);
  // The machine's own name (and its mDNS form): only this network's resolver answers for it, not an attacker's DNS.
  const machine = hostNameOf(os.hostname());
  if (machine) {
    names.add(machine);
    if (!machine.includes(".")) names.add(`${machine}.local`);
  }
  const listen = hostNameOf(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);
  const localhost = !listen || listen === "0.0.0.0" || listen === "[::]" || isLoopbackHostName(listen);
  known = { any: allowedHosts.includes("*"), names, localhost };
  return known;
}

/**
 * Whether a host name (as hostNameOf returns it) names this server. IP addresses always do: a rebinding page can
 * only reach the server through a DNS name it controls, and load balancers' health checks use addresses.
 */
export function isKnownHost(hostname: string): boolean {
  const { any, names, localhost } = knownHosts();
  if (any || isIpHostName(hostname)) return true;
  if (isLoopbackHostName(hostname)) return localhost;
  return names.has(hostname);
}

/** Refuses a request whose Host (or, from a trusted proxy, X-Forwarded-Host) names an unknown host. */
export function rejectUnknownHosts(req: Request, res: Response, next: NextFunction) {
  const raw = req.get("host") ?? "";
  const forwarded = req.host ?? raw; // X-Forwarded-Host when TRUST_PROXY trusts the sender, else Host
  for (const header of forwarded === raw ? [raw] : [raw, forwarded]) {
    const hostname = hostNameOf(header);
    if (hostname && isKnownHost(hostname)) continue;
    const detail = hostname
      ? `This server does not answer to the host name '${hostname}'. If it is this server's address, add it to ALLOWED_HOSTS or set PUBLIC_URL.`
      : "The request names no valid host.";
    res.status(421).type("application/problem+json").setHeader("Cache-Control", "no-store");
    res.send(JSON.stringify(problemBody(421, detail)));
    return;
  }
  next();
}
