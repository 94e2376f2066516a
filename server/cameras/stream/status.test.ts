import { describe, expect, it } from "vitest";
import { offlineReason } from "./status";

// ffmpeg's own last lines (5.1 and the npm 4.1 build say the same), as seen against the fake IP camera.
const exit = (stderr: string, code: number | null = 1) => ({ code, signal: null, stderr });

describe("offlineReason", () => {
  it.each([
    ["rtsp://admin:bad@127.0.0.1:43621/2: Server returned 401 Unauthorized (authorization failed)", false, "authentication failed"],
    ["[tcp @ 0x1] Connection to tcp://127.0.0.1:1?timeout=0 failed: Connection refused", false, "unreachable"],
    ["rtsp://127.0.0.1:554/1: Connection timed out", false, "unreachable"],
    ["unreachable: AddressRefused", false, "unreachable"],
    ["rtsp://admin:admin@127.0.0.1:43621/9: Server returned 404 Not Found", false, "stream ended"],
    ["[rtsp @ 0x1] Decoder (codec none) not found for input stream #0:0", false, "unsupported codec"],
    ["av_interleaved_write_frame(): Connection reset by peer", true, "stream ended"],
    ["", true, "stream ended"],
  ] as const)("%s (frames before: %s) → %s", (stderr, hadFrames, reason) => {
    expect(offlineReason(exit(stderr), hadFrames)).toBe(reason);
  });

  it("says 'no ffmpeg' when the binary could not start, whatever the log", () => {
    expect(offlineReason({ ...exit(""), spawnError: new Error("spawn ENOENT") }, false)).toBe("no ffmpeg");
  });
});
