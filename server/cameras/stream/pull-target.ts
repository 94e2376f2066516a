// Where a pull (through its relay) or the snapshot fetch actually connects: the stored camera URL vetted again
// (camera-url.ts), its host resolved once and judged by the camera address policy (PTZ_ALLOWED_NETWORKS/PORTS), the
// checked address in place of the name (no DNS rebinding between check and connect).
import { cameraTargetPolicy, type CameraTargetPolicy } from "../../net/camera-target";
import { pinTarget, vetUrlForm } from "../camera-url";
import type { CameraCredentials } from "../source";
import { startHttpRelay } from "./http-relay";
import { startRtspRelay } from "./rtsp-relay";
import type { PullRelay, PullTarget } from "./pull-types";

/** Throws CameraAddressError ("refused" or "unreachable") when the camera may not or cannot be reached. */
export async function pullTarget(stored: string, policy: CameraTargetPolicy = cameraTargetPolicy()): Promise<PullTarget> {
  const vetted = vetUrlForm(stored);
  const url = vetted.url;
  const address = await pinTarget(vetted.hostname, vetted.port, policy);
  // TLS checks the certificate against the name, so rtsps/https keep the (now checked) name.
  if (url.protocol === "rtsp:" || url.protocol === "http:") url.hostname = address.includes(":") ? `[${address}]` : address;
  return { url: url.href, host: vetted.hostname, address, port: vetted.port };
}

export interface OpenedPull {
  /** What ffmpeg opens: the loopback relay's URL (a one-time token, no credentials in ffmpeg's argv). */
  url: string;
  /** Close it once ffmpeg has exited. */
  relay: PullRelay;
}

/**
 * The URL to hand ffmpeg for a stored camera URL: every pull goes through a loopback relay (rtsp-relay.ts,
 * http-relay.ts) that logs in for ffmpeg and connects only to the checked address, so neither a login in argv nor a
 * camera's redirect takes ffmpeg anywhere the address policy has not judged (decision 0004).
 */
export async function openPull(stored: string, credentials: CameraCredentials | null): Promise<OpenedPull> {
  const target = await pullTarget(stored);
  const relay = /^rtsps?:/i.test(stored) ? await startRtspRelay(target, credentials) : await startHttpRelay(target, credentials);
  return { url: relay.url, relay };
}
