// HTTP/RTSP Digest authentication (RFC 7616, MD5 or SHA-256, qop=auth or the RFC 2069 form), the client side:
// PTZOptics CGI, RTSP DESCRIBE and camera snapshots all answer 401 with the same challenge.
import { createHash, randomBytes } from "node:crypto";

export interface DigestChallenge {
  realm: string;
  nonce: string;
  qop?: string;
  opaque?: string;
  algorithm: "MD5" | "SHA-256";
  /** Nonce count, raised on every use so the challenge can be reused. */
  nc: number;
}

/** The Digest challenge of a WWW-Authenticate header (or one of several), or undefined when it offers none. */
export function parseChallenge(header: string | string[] | undefined): DigestChallenge | undefined {
  const text = (Array.isArray(header) ? header : [header]).find((h) => h && /^\s*digest\s/i.test(h));
  if (!text) return undefined;
  const params: Record<string, string> = {};
  for (const match of text.replace(/^\s*digest\s+/i, "").matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) {
    params[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? "";
  }
  if (!params.nonce) return undefined;
  return {
    realm: params.realm ?? "",
    nonce: params.nonce,
    qop: params.qop,
    opaque: params.opaque,
    algorithm: /sha-256/i.test(params.algorithm ?? "") ? "SHA-256" : "MD5",
    nc: 0,
  };
}

/** The Authorization header answering `challenge` for one request (method and request URI as sent). */
export function digestAuthorization(challenge: DigestChallenge, request: { method: string; uri: string; username: string; password: string }): string {
  const hash = (text: string) =>
    createHash(challenge.algorithm === "SHA-256" ? "sha256" : "md5")
      .update(text)
      .digest("hex");
  challenge.nc += 1;
  const nc = challenge.nc.toString(16).padStart(8, "0");
  const cnonce = randomBytes(8).toString("hex");
  const ha1 = hash(`${request.username}:${challenge.realm}:${request.password}`);
  const ha2 = hash(`${request.method}:${request.uri}`);
  const qop = challenge.qop
    ?.split(",")
    .map((q) => q.trim())
    .includes("auth")
    ? "auth"
    : undefined;
  const response = qop ? hash(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : hash(`${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username="${request.username.replace(/["\\]/g, "")}"`,
    `realm="${challenge.realm}"`,
    `nonce="${challenge.nonce}"`,
    `uri="${request.uri}"`,
    `algorithm=${challenge.algorithm}`,
    `response="${response}"`,
    ...(challenge.opaque ? [`opaque="${challenge.opaque}"`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`] : []),
  ];
  return `Digest ${parts.join(", ")}`;
}

/** Basic, for cameras whose HTTP endpoints offer only that (over the LAN, as the camera asks). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}
