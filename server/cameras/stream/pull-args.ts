// ffmpeg arguments for pulling one camera stream into fragmented MP4 on stdout, built so ffmpeg cannot be made a file reader.
import type { FfmpegBinary } from "./ffmpeg-binary";

export class StreamUrlError extends Error {
  override name = "StreamUrlError";
}

/**
 * Per scheme: the protocols ffmpeg may open (everything nested, e.g. a playlist's entries or a redirect, is
 * checked against the same list) and the demuxers it may use. RTSP interleaved over TCP opens one `tcp`
 * connection (plus `tls` for rtsps) and parses RTP from it in-process: no `rtp`/`udp` URL is opened.
 * No `httpproxy` (ffmpeg runs with an empty environment, so no proxy variable can route it elsewhere), and
 * no `hls`/`concat`/`file`/`data`/`pipe`/`subfile`: a camera answering with a playlist gets no further.
 */
const SCHEMES = {
  "rtsp:": { protocols: "tcp", formats: "rtsp" },
  "rtsps:": { protocols: "tcp,tls", formats: "rtsp" },
  // MP4 (progressive), MPEG-TS, multipart MJPEG and a single JPEG snapshot are what cameras serve over HTTP.
  "http:": { protocols: "http,tcp", formats: "mov,mpegts,mpjpeg,mjpeg,jpeg_pipe" },
  "https:": { protocols: "https,tls,tcp", formats: "mov,mpegts,mpjpeg,mjpeg,jpeg_pipe" },
} as const;

export type StreamScheme = keyof typeof SCHEMES;

/** Parses a camera stream URL and accepts only the four schemes; throws StreamUrlError (a message for the user) otherwise. */
export function parseStreamUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new StreamUrlError("The stream address is not a URL (expected rtsp://, rtsps://, http:// or https://)");
  }
  if (!Object.hasOwn(SCHEMES, url.protocol)) {
    throw new StreamUrlError(`Stream addresses must start with rtsp://, rtsps://, http:// or https:// (not ${url.protocol}//)`);
  }
  if (!url.hostname) throw new StreamUrlError("The stream address has no host");
  return url;
}

export interface PullOptions {
  /** The camera's stream URL, credentials included (ffmpeg needs them; the argument list is never logged). */
  url: string;
  /** Socket connect/read timeout. */
  timeoutMs?: number;
  /**
   * "copy" re-muxes H.264 as it arrives (no decoding: the cheap path). "transcode" decodes and encodes H.264 with
   * libx264 at the given size, for H.265 and other codecs a browser cannot play, and for MJPEG sources.
   */
  video?: { mode: "copy" } | { mode: "transcode"; width: number; height: number; fps?: number };
  /**
   * One fragment per frame instead of one per keyframe: a live viewer gets each frame as it arrives rather than a
   * whole GOP (1-4 s) late. The fragments still carry their keyframe flags, so viewers start and skip at keyframes.
   */
  fragmentEveryFrame?: boolean;
  /**
   * Skip ffmpeg's stream analysis (up to 5 s of buffering before the first output; measured 2.9 s → 0.3 s to the first
   * fragment on the fake camera). Safe when the camera's SDP carries the SPS/PPS (sprop-parameter-sets), as cameras'
   * do; without them ffmpeg cannot size the stream and fails at once, and the caller retries without this.
   */
  fastStart?: boolean;
  /** "jpeg": one decoded frame as a JPEG on stdout and exit (a snapshot of a stream), instead of fragmented MP4. */
  output?: "fmp4" | "jpeg";
}

/** The full argument list for `spawn(binary.path, args)`: no shell, stdin unused, fMP4 on stdout, log on stderr. */
export function buildPullArgs(binary: Pick<FfmpegBinary, "rtspTimeoutOption">, options: PullOptions): string[] {
  const url = parseStreamUrl(options.url);
  const scheme = SCHEMES[url.protocol as StreamScheme];
  const timeoutUs = String(Math.round((options.timeoutMs ?? 10_000) * 1000));
  const isRtsp = url.protocol === "rtsp:" || url.protocol === "rtsps:";
  const input = [
    "-protocol_whitelist",
    scheme.protocols,
    "-format_whitelist",
    scheme.formats,
    // Every I/O wait is bounded, so a camera that stops answering ends the process instead of hanging it. The RTSP
    // demuxer opens its own connection and refuses -rw_timeout ("Option rw_timeout not found"): its socket timeout does that.
    ...(isRtsp
      ? ["-f", "rtsp", "-rtsp_transport", "tcp", `-${binary.rtspTimeoutOption}`, timeoutUs, "-allowed_media_types", "video"]
      : [
          "-rw_timeout",
          timeoutUs,
          // Segments and reconnects are not followed: a new attempt is the supervisor's decision, with backoff.
          "-reconnect",
          "0",
        ]),
    // Timestamps for cameras that send frames without them. Not +nobuffer: it drops the packets read while
    // probing, which lost the whole first fragment (pull.test.ts caught it).
    "-fflags",
    "+genpts",
    ...(options.fastStart ? ["-analyzeduration", "0", "-probesize", "32"] : []),
    "-i",
    url.href,
  ];
  if (options.output === "jpeg") {
    // The first whole picture (ffmpeg decodes from the first keyframe on), full size, as a high-quality JPEG.
    return ["-hide_banner", "-nostdin", "-loglevel", "error", ...input, "-map", "0:v:0", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "2", "-an", "-f", "image2pipe", "pipe:1"];
  }
  const video = options.video ?? { mode: "copy" };
  const codec =
    video.mode === "copy"
      ? ["-c:v", "copy"]
      : [
          "-vf",
          `scale=${video.width}:${video.height}:force_original_aspect_ratio=decrease,pad=ceil(iw/2)*2:ceil(ih/2)*2,format=yuv420p`,
          ...(video.fps ? ["-r", String(video.fps)] : []),
          "-c:v",
          "libx264",
          "-preset",
          "ultrafast",
          "-tune",
          "zerolatency",
          "-profile:v",
          "baseline",
          // A keyframe at least every 2 s, so new viewers and skipped slow viewers start soon.
          "-force_key_frames",
          "expr:gte(t,n_forced*2)",
        ];
  return [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    ...input,
    "-map",
    "0:v:0",
    ...codec,
    "-an",
    "-f",
    "mp4",
    // Each fragment starts at a keyframe; an empty moov lets the init segment go out before any frame.
    "-movflags",
    `frag_keyframe${options.fragmentEveryFrame ? "+frag_every_frame" : ""}+empty_moov+default_base_moof`,
    "pipe:1",
  ];
}
