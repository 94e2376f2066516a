// What a camera pull connects to and through, apart from the code that makes them (pull-target.ts, rtsp-relay.ts,
// http-relay.ts), so those modules import only this one from each other.

export interface PullTarget {
  /** The stored URL with the checked address as host (rtsps/https keep the name), no credentials. */
  url: string;
  /** The camera's host as stored (a TLS camera's certificate names it; callers keep it for Host headers). */
  host: string;
  /** The checked address and port to connect to (for rtsps/https too, whose `url` keeps the name). */
  address: string;
  port: number;
}

/** A loopback relay ffmpeg pulls a camera through (this one for RTSP, http-relay.ts for HTTP). */
export interface PullRelay {
  /** What ffmpeg opens: loopback, a one-time token, no credentials. */
  url: string;
  /** Set when the camera could not be reached, dropped the connection or redirected (ffmpeg then only sees its side end). */
  readonly upstreamError: string | null;
  close(): void;
}

/** Why a pull stopped when the camera answered with a redirect (shown as "unreachable"). */
export const REDIRECT_REFUSED = "it redirected elsewhere, and redirects are not followed";
