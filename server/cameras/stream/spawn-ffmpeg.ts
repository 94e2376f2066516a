// Runs one ffmpeg child for a camera stream: array arguments (no shell), stdin closed unless asked for, killed on abort
// and always reaped.
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export interface FfmpegRun {
  pid: number | undefined;
  /** The fMP4 bytes (ffmpeg's stdout). */
  stdout: Readable;
  /** ffmpeg's stdin: already ended unless `streamInput` was asked for (then the caller writes and ends it). */
  stdin: Writable;
  /** Settles once the child has exited and been reaped; never rejects. */
  exited: Promise<FfmpegExit>;
}

export interface FfmpegExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of stderr (bounded), for the reason shown on the camera card. */
  stderr: string;
  /** Set when the child could not start at all (e.g. ENOENT). */
  spawnError?: Error;
}

const STDERR_TAIL_BYTES = 8 * 1024;
/** After SIGTERM, ffmpeg gets this long to finish writing before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * `input`: bytes for ffmpeg's stdin (`-i pipe:0`, e.g. a GOP to decode); without it stdin is closed. `streamInput`:
 * stdin stays open for the caller to write to as the bytes come (a live stream to decode).
 */
export function spawnFfmpeg(binaryPath: string, args: string[], options: { signal?: AbortSignal; input?: Buffer; streamInput?: boolean } = {}): FfmpegRun {
  // An empty environment: no http_proxy/no_proxy/AV_LOG_FORCE_* from ours can redirect or alter what ffmpeg does.
  const child = spawn(binaryPath, args, { stdio: ["pipe", "pipe", "pipe"], env: {}, shell: false, windowsHide: true });
  // Without input, stdin ends at once (as /dev/null would); ffmpeg may stop reading early (EPIPE is no error).
  child.stdin.on("error", () => {});
  if (!options.streamInput) child.stdin.end(options.input);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  });
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // Nobody reads the output any more: closing our end also unblocks an ffmpeg stuck writing to a full pipe.
    child.stdout.destroy();
    child.stdin.destroy();
    killTimer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    killTimer.unref();
  };
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener("abort", stop, { once: true });

  const exited = new Promise<FfmpegExit>((resolve) => {
    let spawnError: Error | undefined;
    child.once("error", (error) => {
      spawnError = error;
      // A child that never started emits no "close"/"exit" of its own on some Node versions; settle here too.
      if (child.pid === undefined) resolve({ code: null, signal: null, stderr, spawnError });
    });
    // "close" comes after "exit" and after stdout/stderr have ended: the child is reaped and its output read.
    child.once("close", (code, signal) => {
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", stop);
      resolve({ code, signal, stderr, spawnError });
    });
  });
  return { pid: child.pid, stdout: child.stdout, stdin: child.stdin, exited };
}
