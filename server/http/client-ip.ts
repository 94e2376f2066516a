// The client's address as express resolved it (honouring TRUST_PROXY), handed to route code in a header
// that the server always overwrites, so callers can't spoof it.
export const CLIENT_IP_HEADER = "x-framewise-client-ip";

export function clientIp(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER);
}

export function requestMeta(request: Request) {
  return { ip: clientIp(request), userAgent: request.headers.get("user-agent") };
}
