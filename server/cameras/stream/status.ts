// What a camera stream's viewers and its card are told: connecting / online / offline with a reason, read from
// how ffmpeg ended (its exit and the end of its log), never from the log verbatim (it names the URL, login included).
import type { CameraOfflineReason } from "#app/schemas/cameras";
import type { FfmpegExit } from "./spawn-ffmpeg";

export type StreamState = "connecting" | "online" | "offline";

/** The JSON text message a live viewer gets (the contract in docs/architecture.md, "IP camera streams"). */
export interface StreamStatus {
  type: "status";
  status: StreamState;
  reason: CameraOfflineReason | null;
  codec: string | null;
  /** For MediaSource.isTypeSupported/addSourceBuffer, e.g. 'video/mp4; codecs="avc1.42c01e"'. */
  mime: string | null;
  width: number | null;
  height: number | null;
  transcoded: boolean;
}

/**
 * Why ffmpeg stopped, from its log's end. The patterns are ffmpeg's own messages (5.x and the npm 4.1 build alike):
 * "Server returned 401 Unauthorized (authorization failed)", "Connection refused", "Connection timed out",
 * "No route to host", "Invalid data found when processing input", "Decoder (codec …) not found".
 * `hadFrames`: the stream had been delivering, so a clean or unexplained end is the camera ending it.
 */
export function offlineReason(exit: FfmpegExit, hadFrames: boolean): CameraOfflineReason {
  if (exit.spawnError) return "no ffmpeg";
  const log = exit.stderr;
  if (/\b401\b|Unauthorized|authorization failed|\b403 Forbidden/i.test(log)) return "authentication failed";
  if (/codec .*not (?:currently )?supported|Decoder .* not found|unknown codec|Could not find codec parameters|no decoder|Unsupported codec/i.test(log)) return "unsupported codec";
  if (hadFrames) return "stream ended";
  if (/refused|timed out|timeout|No route to host|unreachable|Network is down|Name or service not known|resolve|Connection reset/i.test(log)) return "unreachable";
  // A camera that answered but sent nothing usable (404 path, no video track, garbage) ends the stream too.
  if (/\b404\b|Not Found|\b5\d\d\b|Invalid data|End of file|does not contain any stream|matches no streams/i.test(log)) return "stream ended";
  return exit.code === 0 ? "stream ended" : "unreachable";
}

/** 'video/mp4; codecs="avc1.PPCCLL"' from the init segment's avcC box (profile, constraints, level), or null. */
export function mimeOf(init: Buffer): { mime: string; width: number | null; height: number | null } | null {
  const avc1 = init.indexOf("avc1", 0, "latin1");
  const avcC = init.indexOf("avcC", 0, "latin1");
  if (avcC < 0 || avcC + 8 > init.length) return null;
  const hex = (at: number) => init.readUInt8(at).toString(16).padStart(2, "0");
  // avcC payload: configurationVersion, AVCProfileIndication, profile_compatibility, AVCLevelIndication.
  const codecs = `avc1.${hex(avcC + 5)}${hex(avcC + 6)}${hex(avcC + 7)}`;
  // VisualSampleEntry: width and height 24 and 26 bytes after the entry's payload (the 4 bytes after its type).
  const sized = avc1 > 0 && avc1 + 4 + 28 <= init.length;
  return {
    mime: `video/mp4; codecs="${codecs}"`,
    width: sized ? init.readUInt16BE(avc1 + 4 + 24) : null,
    height: sized ? init.readUInt16BE(avc1 + 4 + 26) : null,
  };
}
