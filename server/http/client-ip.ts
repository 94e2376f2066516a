// The client's address as express resolved it (honouring TRUST_PROXY), and whether the request comes from this
// very machine, handed to route code in headers that the server always overwrites, so callers can't spoof them.
import type { NextFunction, Request as ExpressRequest, Response } from "express";
import { config } from "../config";
import { hostNameOf, isLoopbackAddress, isLoopbackHostName } from "../net/host-name";

export const CLIENT_IP_HEADER = "x-framewise-client-ip";
const THIS_MACHINE_HEADER = "x-framewise-this-machine";

/** Headers a reverse proxy adds: a request carrying any of them was relayed, whoever sent it. */
const PROXY_HEADERS = ["x-forwarded-for", "x-forwarded-host", "forwarded", "x-real-ip"];

/**
 * A browser or tool on the server's own machine: the socket is loopback, no proxy relayed it, it names the
 * server by a loopback host, and PUBLIC_URL (if set) is local too. A reverse proxy on the same machine that
 * adds no headers still looks local here; an operator who set PUBLIC_URL to the public address is safe then.
 */
function fromThisMachine(req: ExpressRequest): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress ?? "")) return false;
  if (PROXY_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  const host = hostNameOf(req.get("host") ?? "");
  if (!host || !isLoopbackHostName(host)) return false;
  const publicUrl = config().publicUrl;
  return !publicUrl || isLoopbackHostName(hostNameOf(new URL(publicUrl).host) ?? "");
}

/**
 * Express's compiled TRUST_PROXY check, remembering its answers (it depends on the address and hop only). Express asks
 * it afresh for req.ip, req.protocol, req.secure and req.hostname, each time parsing the address again: about five
 * times a request, ~2 % of a small API request's CPU (bench/foundation.ts). Installed as express's "trust proxy fn".
 */
export function rememberingTrust(trust: (address: string, hop: number) => boolean): (address: string, hop: number) => boolean {
  const known = new Map<string, boolean>();
  return (address, hop) => {
    const key = hop === 0 ? address : `${hop} ${address}`;
    let answer = known.get(key);
    if (answer === undefined) {
      answer = trust(address, hop);
      // Addresses come from clients: a bounded memory, started afresh when full.
      if (known.size >= 4096) known.clear();
      known.set(key, answer);
    }
    return answer;
  };
}

export function markClientAddress(req: ExpressRequest, _res: Response, next: NextFunction) {
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "";
  req.headers[THIS_MACHINE_HEADER] = fromThisMachine(req) ? "1" : "0";
  next();
}

export function clientIp(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER) || null;
}

export function isFromThisMachine(request: Request): boolean {
  return request.headers.get(THIS_MACHINE_HEADER) === "1";
}

export function requestMeta(request: Request) {
  return { ip: clientIp(request), userAgent: request.headers.get("user-agent") };
}
