// Every address an IP camera is reached at — the URL a user typed, the URLs ONVIF answers with, the snapshot URL —
// is vetted here before any connection: one of four schemes, no shell or header metacharacters, no userinfo
// tricks, credentials lifted out of the URL, and the host:port judged by the camera address policy with the
// resolved address pinned (the probes connect to that address, never to the name again).
import { resolveCameraTarget, type CameraTargetPolicy } from "../net/camera-target";
import { AddressRefused } from "../net/resolve";
import { parseStreamUrl, StreamUrlError } from "./stream/pull-args";
import type { CameraCredentials } from "./source";

/** Why an address cannot be used; `kind` picks the field and the wording of the 422. */
export class CameraAddressError extends Error {
  constructor(
    readonly kind: "refused" | "unreachable" | "auth" | "unsupported",
    message: string,
  ) {
    super(message);
    this.name = "CameraAddressError";
  }
}

export const DEFAULT_PORTS: Record<string, number> = { "rtsp:": 554, "rtsps:": 322, "http:": 80, "https:": 443 };

/** A shell or header metacharacter, whitespace or a control character: never part of a camera URL we pass on. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses (CR/LF would inject RTSP headers)
const HOSTILE_CHARACTERS = /[\s\u0000-\u001f\u007f;|`$<>\\"'{}()]/;

export interface VettedUrl {
  /** The URL without credentials (what is stored and shown to ffmpeg with credentials added back). */
  url: URL;
  /** The userinfo that was inside the URL, if any. */
  credentials: CameraCredentials | null;
  hostname: string;
  port: number;
}

/** Parses and checks a camera URL's form (no network); throws CameraAddressError("refused"). */
export function vetUrlForm(input: string): VettedUrl {
  if (HOSTILE_CHARACTERS.test(input))
    throw new CameraAddressError("refused", "The stream URL contains a character a camera URL never needs (space, quote, ;, |, $, `, <, >, \\, braces or brackets)");
  let url: URL;
  try {
    url = parseStreamUrl(input);
  } catch (error) {
    if (error instanceof StreamUrlError) throw new CameraAddressError("refused", error.message);
    throw error;
  }
  // A second "@" (user@evil@camera), or a userinfo the parser had to repair, is a trick to make a reader see one host while ffmpeg dials another.
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(input)?.[1] ?? "";
  if ((authority.match(/@/g) ?? []).length > 1) throw new CameraAddressError("refused", "The stream URL's user name or password part is ambiguous (more than one @)");
  const credentials = url.username || url.password ? { username: safeDecode(url.username), password: safeDecode(url.password) } : null;
  url.username = "";
  url.password = "";
  url.hash = "";
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]!;
  return { url, credentials, hostname: url.hostname.replace(/^\[|\]$/g, ""), port };
}

/** Checks host:port against the policy and returns the address to connect to; CameraAddressError("refused"|"unreachable"). */
export async function pinTarget(hostname: string, port: number, policy: CameraTargetPolicy): Promise<string> {
  try {
    return await resolveCameraTarget(hostname, port, policy);
  } catch (error) {
    if (error instanceof AddressRefused) throw new CameraAddressError("refused", error.message);
    throw new CameraAddressError("unreachable", `${hostname} could not be resolved`);
  }
}

/** "host", "host:port", "[v6]:port" as typed into the host field. */
export function splitHostPort(text: string): { hostname: string; port: number | null } {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match) return { hostname: text.trim(), port: null };
  return { hostname: match[1] ?? match[2]!, port: match[3] ? Number(match[3]) : null };
}

/** The URL for a host and path, IPv6 bracketed. */
export function urlFor(scheme: "rtsp" | "http", hostname: string, port: number, path: string): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `${scheme}://${host}:${port}${path}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
