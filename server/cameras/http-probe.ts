// What an HTTP(S) camera URL serves, read from the answer's head only: an MJPEG stream
// (multipart/x-mixed-replace), a JPEG snapshot, or MPEG-TS/MP4 video. Digest or Basic on a 401, once; redirects
// are not followed (a redirect could point anywhere the policy has not judged).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { basicAuthorization, digestAuthorization, parseChallenge } from "../net/digest-auth";
import type { ProbeOutcome } from "./rtsp-probe";
import type { CameraCredentials } from "./source";

/** Content types a camera serves over HTTP, as codec names; anything else is not a camera picture. */
export function httpCodec(contentType: string): string | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/x-mixed-replace") return "mjpeg";
  if (type === "image/jpeg") return "jpeg";
  if (type === "video/mp2t" || type === "video/mp4") return "h264";
  return null;
}

/** GETs the URL at the checked address and reads its status and Content-Type; never throws. */
export async function probeHttp(url: URL, address: string, port: number, credentials: CameraCredentials | null, signal: AbortSignal): Promise<ProbeOutcome> {
  const path = `${url.pathname}${url.search}`;
  try {
    let answer = await head(url, address, port, path, undefined, signal);
    if (answer.status === 401) {
      if (!credentials) return { kind: "auth" };
      const challenge = parseChallenge(answer.authenticate);
      const authorization = challenge
        ? digestAuthorization(challenge, { method: "GET", uri: path, ...credentials })
        : answer.authenticate.some((h) => /^\s*basic/i.test(h))
          ? basicAuthorization(credentials.username, credentials.password)
          : null;
      if (!authorization) return { kind: "auth" };
      answer = await head(url, address, port, path, authorization, signal);
      if (answer.status === 401) return { kind: "auth" };
    }
    if (answer.status !== 200) return { kind: "missing", status: answer.status };
    const codec = httpCodec(answer.contentType);
    return codec ? { kind: "ok", codec } : { kind: "missing", status: 415 };
  } catch (error) {
    return { kind: "unreachable", why: error instanceof Error ? error.message : String(error) };
  }
}

function head(url: URL, address: string, port: number, path: string, authorization: string | undefined, signal: AbortSignal) {
  const secure = url.protocol === "https:";
  return new Promise<{ status: number; contentType: string; authenticate: string[] }>((resolve, reject) => {
    const request = (secure ? https : http).request(
      {
        host: address,
        port,
        path,
        method: "GET",
        signal,
        agent: false,
        headers: { Host: url.host, "User-Agent": "Framewise", ...(authorization ? { Authorization: authorization } : {}) },
        ...(secure ? { servername: net.isIP(url.hostname) ? undefined : url.hostname, rejectUnauthorized: false } : {}),
      },
      (response) => {
        const authenticate = response.headers["www-authenticate"];
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers["content-type"] ?? "",
          authenticate: Array.isArray(authenticate) ? authenticate : authenticate ? [authenticate] : [],
        });
        // Only the head matters: an MJPEG stream never ends, so the connection is closed here.
        response.destroy();
        request.destroy();
      },
    );
    request.on("error", reject);
    request.end();
  });
}
