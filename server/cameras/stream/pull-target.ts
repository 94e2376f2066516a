// The URL ffmpeg (or the snapshot fetch) actually opens: the stored camera URL vetted again (camera-url.ts), its host
// resolved once and judged by the camera address policy (PTZ_ALLOWED_NETWORKS/PORTS), the checked address in place
// of the name (no DNS rebinding between check and connect), and for RTSP the camera login inside (ffmpeg takes it
// nowhere else).
import { cameraTargetPolicy, type CameraTargetPolicy } from "../../net/camera-target";
import { pinTarget, vetUrlForm } from "../camera-url";
import type { CameraCredentials } from "../source";
import { startRtspRelay, type RtspRelay } from "./rtsp-relay";

export interface PullTarget {
  /** What to open: the checked address, credentials inside for RTSP. Never logged, never sent to a browser. */
  url: string;
  /** The camera's host as stored (a TLS camera's certificate names it; callers keep it for Host headers). */
  host: string;
}

/** Throws CameraAddressError ("refused" or "unreachable") when the camera may not or cannot be reached. */
export async function pullTarget(stored: string, credentials: CameraCredentials | null, options: { credentialsInUrl: boolean; policy?: CameraTargetPolicy }): Promise<PullTarget> {
  const vetted = vetUrlForm(stored);
  const url = vetted.url;
  const address = await pinTarget(vetted.hostname, vetted.port, options.policy ?? cameraTargetPolicy());
  // TLS checks the certificate against the name, so rtsps/https keep the (now checked) name.
  if (url.protocol === "rtsp:" || url.protocol === "http:") url.hostname = address.includes(":") ? `[${address}]` : address;
  if (options.credentialsInUrl && credentials) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.password);
  }
  return { url: url.href, host: vetted.hostname };
}

export interface OpenedPull {
  /** What ffmpeg opens. For RTSP with a login: the loopback relay's URL (no credentials in ffmpeg's argv). */
  url: string;
  /** Close it once ffmpeg has exited. */
  relay: RtspRelay | null;
}

/**
 * The URL to hand ffmpeg for a stored camera URL. RTSP logins go through a loopback relay (rtsp-relay.ts); an HTTP
 * stream's login still rides in the URL (ffmpeg's http client answers the challenge; decision 0004).
 */
export async function openPull(stored: string, credentials: CameraCredentials | null): Promise<OpenedPull> {
  const rtsp = /^rtsps?:/i.test(stored);
  const target = await pullTarget(stored, credentials, { credentialsInUrl: !rtsp });
  if (!rtsp || !credentials) return { url: target.url, relay: null };
  const relay = await startRtspRelay(new URL(target.url), credentials, target.host);
  return { url: relay.url, relay };
}
