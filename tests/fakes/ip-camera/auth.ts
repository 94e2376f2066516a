// HTTP/RTSP authentication as IP cameras do it: RFC 2617/7616 Digest (MD5, with or without qop=auth) and Basic.
// RTSP and the camera's HTTP endpoints share it; `authorizationFor` is the client half the fake's own tests use.
import { createHash, randomBytes } from "node:crypto";

export type AuthScheme = "digest" | "basic";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** The parameters of a Digest or Basic header value, e.g. `Digest username="a", nonce="b"`. */
export function parseAuthParams(value: string): { scheme: string; params: Record<string, string> } {
  const space = value.indexOf(" ");
  const scheme = (space < 0 ? value : value.slice(0, space)).toLowerCase();
  const params: Record<string, string> = {};
  for (const m of value.slice(space + 1).matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g)) params[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? "";
  return { scheme, params };
}

export class Authenticator {
  private readonly nonces = new Set<string>();
  /** Requests refused for wrong or missing credentials (not counting the first, credential-less, challenge). */
  failures = 0;

  constructor(
    private readonly username: string,
    private readonly password: string,
    private readonly scheme: AuthScheme,
    private readonly realm = "Framewise Fake Camera",
  ) {}

  /** The WWW-Authenticate value of a 401; each challenge carries a fresh nonce the camera remembers. */
  challenge(): string {
    if (this.scheme === "basic") return `Basic realm="${this.realm}"`;
    const nonce = randomBytes(16).toString("hex");
    this.nonces.add(nonce);
    return `Digest realm="${this.realm}", nonce="${nonce}", algorithm=MD5, qop="auth"`;
  }

  /** Whether an Authorization header proves the credentials for this method and request URI. */
  check(method: string, header: string | undefined): boolean {
    if (!header) return false;
    const ok = this.verify(method, header);
    if (!ok) this.failures++;
    return ok;
  }

  private verify(method: string, header: string): boolean {
    const { scheme, params } = parseAuthParams(header);
    if (scheme === "basic" && this.scheme === "basic") {
      return Buffer.from(header.slice(6).trim(), "base64").toString("utf8") === `${this.username}:${this.password}`;
    }
    if (scheme !== "digest" || this.scheme !== "digest") return false;
    const { username, realm, nonce, uri, response, qop, nc, cnonce } = params;
    if (username !== this.username || realm !== this.realm || !nonce || !this.nonces.has(nonce) || !uri || !response) return false;
    const ha1 = md5(`${this.username}:${this.realm}:${this.password}`);
    const ha2 = md5(`${method}:${uri}`);
    const expected = qop === "auth" ? md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`) : md5(`${ha1}:${nonce}:${ha2}`);
    return expected === response.toLowerCase();
  }
}

/** The Authorization header answering a challenge (client side, for tests that speak HTTP without ffmpeg). */
export function authorizationFor(challenge: string, method: string, uri: string, username: string, password: string): string {
  const { scheme, params } = parseAuthParams(challenge);
  if (scheme === "basic") return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const { realm = "", nonce = "" } = params;
  const cnonce = randomBytes(8).toString("hex");
  const nc = "00000001";
  const ha1 = md5(`${username}:${realm}:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return `Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", algorithm=MD5, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}"`;
}
