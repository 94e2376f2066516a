// The URL ffmpeg (or the snapshot fetch) actually opens: the stored camera URL with its host resolved once and judged
// by the camera address policy (PTZ_ALLOWED_NETWORKS/PORTS), the checked address in place of the name (no DNS
// rebinding between check and connect), and for RTSP the camera login inside (ffmpeg takes it nowhere else).
import { cameraTargetPolicy, resolveCameraTarget } from "../../net/camera-target";
import type { CameraCredentials } from "../source";
import { parseStreamUrl } from "./pull-args";

const DEFAULT_PORTS: Record<string, number> = { "rtsp:": 554, "rtsps:": 322, "http:": 80, "https:": 443 };

export interface PullTarget {
  /** What to open: the checked address, credentials inside for RTSP. Never logged, never sent to a browser. */
  url: string;
  /** The camera's host as stored (a TLS camera's certificate names it; callers keep it for Host headers). */
  host: string;
}

/** Throws AddressRefused / HostUnresolved (from server/net) when the camera may not or cannot be reached. */
export async function pullTarget(stored: string, credentials: CameraCredentials | null, options: { credentialsInUrl: boolean }): Promise<PullTarget> {
  const url = parseStreamUrl(stored);
  const host = url.hostname;
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]!;
  const address = await resolveCameraTarget(host.replace(/^\[|\]$/g, ""), port, cameraTargetPolicy());
  // TLS checks the certificate against the name, so rtsps/https keep the (now checked) name.
  if (url.protocol === "rtsp:" || url.protocol === "http:") url.hostname = address.includes(":") ? `[${address}]` : address;
  if (options.credentialsInUrl && credentials) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.password);
  } else {
    url.username = "";
    url.password = "";
  }
  return { url: url.href, host };
}
