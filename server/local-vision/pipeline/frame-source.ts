// A camera's detect stream: its pictures decoded to raw RGB at a set rate and width, from the one pull the server
// already makes (decision 0008). The frame source joins the camera as one more viewer of its live stream (the
// sub-stream when the camera has one; H.264 in fMP4 whatever the camera sends, non-H.264 cameras being transcoded by
// the pull) and pipes that fMP4 into a decoder ffmpeg of its own, which writes fixed-size RGB frames to stdout.
//
// Memory stays bounded at every step: the viewer's own queue skips to the next keyframe when the decoder cannot keep
// up (the sink acknowledges a message only once the decoder's stdin took it), and of the decoded frames only the
// newest one nobody has taken yet is kept: a newer one replaces it, and the replaced one is counted as dropped.
import { readFileSync } from "node:fs";
import type { Writable } from "node:stream";
import { logger as appLogger } from "#server/logger";
import type { CameraSource } from "#server/cameras/source";
import { ffmpegBinary, type FfmpegResolution } from "#server/cameras/stream/ffmpeg-binary";
import { Fmp4Splitter } from "#server/cameras/stream/fmp4-splitter";
import type { LiveStreams } from "#server/cameras/stream/live-streams";
import { spawnFfmpeg, type FfmpegExit } from "#server/cameras/stream/spawn-ffmpeg";
import { mimeOf, type StreamStatus } from "#server/cameras/stream/status";
import type { ViewerSink } from "#server/cameras/stream/viewer";
import type { FrameSource, FrameSourceOptions, RawFrame } from "./types";

export const DEFAULT_FRAME_SOURCE_OPTIONS: FrameSourceOptions = { fps: 5, width: 640 };

export interface FrameSourceDeps {
  /** The ffmpeg to decode with (default: the process's, as the camera streams find it). */
  binary?: () => Promise<FfmpegResolution>;
  logger?: Pick<typeof appLogger, "info" | "warn">;
}

/** After a decoder failed on its own (not a new pull), the next one starts at a keyframe no sooner than this. */
const DECODER_RETRY_MS = 1_000;

/**
 * Opens the camera's detect stream: frames of `options.width` pixels (the height keeps the picture's aspect, rounded
 * to even) at `options.fps`. `next()` answers null once the source is closed, or once the camera stream closed it
 * (the camera was changed or deleted, or the server is shutting down): open a new one with the camera's current source.
 */
export function openFrameSource(streams: LiveStreams, source: CameraSource, options: Partial<FrameSourceOptions> = {}, deps: FrameSourceDeps = {}): FrameSource {
  const { fps, width } = { ...DEFAULT_FRAME_SOURCE_OPTIONS, ...options };
  const log = deps.logger ?? appLogger;
  const cameraId = source.cameraId;
  const counts = { decoded: 0, dropped: 0, decoders: 0, lastFrameAt: null as number | null, finishedCpuMs: 0 };
  let closed = false;
  let watching: ReturnType<LiveStreams["watch"]> | undefined;
  let binaryPath: string | undefined;
  /** The newest decoded frame nobody has taken yet. */
  let untaken: RawFrame | null = null;
  /** The frame `next()` answered last: the consumer's until it calls `next()` again. */
  let handedOut: RawFrame | null = null;
  let buffers: FrameBuffers | undefined;
  let waiting: ((frame: RawFrame | null) => void) | undefined;
  let decoder: Decoder | undefined;
  /** The current pull's init segment, to start a replacement decoder from after one failed on its own. */
  let init: Buffer | undefined;
  let retryAfter = 0;

  const deliver = (frame: RawFrame) => {
    counts.decoded += 1;
    counts.lastFrameAt = frame.at;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      handedOut = frame;
      return resolve(frame);
    }
    if (untaken) {
      counts.dropped += 1;
      buffers?.give(untaken.rgb); // never handed out: free again
    }
    untaken = frame;
  };

  const stopDecoder = () => {
    const ending = decoder;
    if (!ending) return Promise.resolve();
    decoder = undefined;
    ending.sampleCpu();
    counts.finishedCpuMs += ending.cpuMs;
    ending.controller.abort();
    return ending.exited;
  };

  /** A new decoder, given the init segment (small, into an empty pipe: never held back). */
  const startDecoder = (segment: Buffer): Decoder | undefined => {
    void stopDecoder();
    const size = mimeOf(segment);
    if (!size?.width || !size.height || !binaryPath) {
      log.warn({ cameraId }, "local vision: the camera stream's init segment gives no picture size; waiting for the next");
      return undefined;
    }
    const height = Math.max(2, Math.round((width * size.height) / size.width / 2) * 2);
    if (buffers?.bytes !== width * height * 3) buffers = new FrameBuffers(width * height * 3);
    counts.decoders += 1;
    retryAfter = Date.now() + DECODER_RETRY_MS;
    const started: Decoder = runDecoder(binaryPath, { fps, width, height }, buffers, deliver, (exit) => {
      if (decoder !== started) return; // stopped by us (its CPU counted then)
      // Failed on its own while the pull goes on: a new one starts from the next keyframe.
      decoder = undefined;
      counts.finishedCpuMs += started.cpuMs;
      log.warn({ cameraId, code: exit.code, signal: exit.signal, stderr: exit.stderr.slice(-500) }, "local vision: the frame decoder stopped; restarting at the next keyframe");
    });
    decoder = started;
    log.info({ cameraId, fps, width, height, source: `${size.width}×${size.height}` }, "local vision: decoding the camera's stream");
    void started.write(segment);
    return started;
  };

  /**
   * Feeds one message of the live stream (a viewer gets whole segments: an init segment, ftyp+moov, or one
   * moof+mdat fragment) to the decoder; the promise resolves once the decoder took it (its stdin drained).
   */
  const feed = (data: Buffer): Promise<void> | undefined => {
    if (data.toString("latin1", 4, 8) === "ftyp") {
      // A new pull (or this viewer's first): the old decoder's stream is over.
      init = data;
      startDecoder(data);
      return undefined;
    }
    if (decoder) return decoder.write(data);
    if (!init || Date.now() < retryAfter) return undefined;
    // After a decoder failed on its own: the next one starts on a keyframe (read with the splitter, only then).
    const splitter = new Fmp4Splitter();
    splitter.push(init);
    const [fragment] = splitter.push(data);
    return fragment?.kind === "fragment" && fragment.keyframe ? startDecoder(init)?.write(data) : undefined;
  };

  const onStatus = (text: string) => {
    const status = JSON.parse(text) as StreamStatus;
    // The pull ended: no decoder idles through a long outage; the pull's next init segment starts a new one.
    if (status.status === "offline") {
      init = undefined;
      void stopDecoder();
    }
  };

  const end = () => {
    if (closed) return Promise.resolve();
    closed = true;
    watching?.leave();
    untaken = null;
    waiting?.(null);
    waiting = undefined;
    return stopDecoder();
  };

  const sink: ViewerSink = {
    send(data, done) {
      if (closed) return void setImmediate(done);
      try {
        const wait = typeof data === "string" ? onStatus(data) : feed(data);
        if (wait) void wait.then(() => done());
        else setImmediate(done);
      } catch (error) {
        log.warn({ cameraId, err: error }, "local vision: unreadable camera stream message");
        void stopDecoder();
        setImmediate(done);
      }
    },
    close(code, reason) {
      log.info({ cameraId, code, reason }, "local vision: the camera stream closed the frame source");
      void end();
    },
  };

  void (deps.binary ?? ffmpegBinary)().then((found) => {
    if (closed) return;
    if (!found.ok) {
      log.warn({ cameraId, reason: found.reason }, "local vision: no ffmpeg to decode the camera's stream");
      return void end();
    }
    binaryPath = found.binary.path;
    try {
      watching = streams.watch(source, sink);
    } catch (error) {
      log.warn({ cameraId, err: error }, "local vision: could not watch the camera's stream");
      void end();
    }
  });

  return {
    next() {
      if (closed) return Promise.resolve(null);
      // The consumer is done with the frame it had: its buffer may hold a later one.
      if (handedOut) buffers?.give(handedOut.rgb);
      handedOut = null;
      if (untaken) {
        const frame = untaken;
        untaken = null;
        handedOut = frame;
        return Promise.resolve(frame);
      }
      // One consumer: a second call while one waits takes over the wait (the first gets null).
      waiting?.(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    stats() {
      decoder?.sampleCpu();
      return {
        decoded: counts.decoded,
        dropped: counts.dropped,
        decoderCpuMs: counts.finishedCpuMs + (decoder?.cpuMs ?? 0),
        lastFrameAt: counts.lastFrameAt,
        decoders: counts.decoders,
        backlogBytes: (watching?.viewer.heldBytes ?? 0) + (decoder?.bufferedBytes() ?? 0),
      };
    },
    close: end,
  };
}

interface Decoder {
  controller: AbortController;
  exited: Promise<void>;
  /** Writes a message; a promise when the decoder's stdin is full (resolves once it drained, or the decoder ended). */
  write(data: Buffer): Promise<void> | undefined;
  /** Bytes written and not yet handed to the decoder's stdin pipe. */
  bufferedBytes(): number;
  /** Its CPU time as last sampled (ms). */
  cpuMs: number;
  sampleCpu(): void;
}

/**
 * The pixel buffers of one source's frames, reused: at most three are in use (the one being filled, the newest
 * untaken, the one the consumer has), so a running source allocates none. A new 640×360 frame 5 times a second is
 * 3.5 MB/s of garbage per camera, and the collections it brings grow with the app's heap.
 */
class FrameBuffers {
  private readonly free: Uint8Array[] = [];
  constructor(readonly bytes: number) {}

  take(): Uint8Array {
    for (let buffer = this.free.pop(); buffer; buffer = this.free.pop()) if (buffer.byteLength === this.bytes) return buffer;
    return new Uint8Array(this.bytes);
  }

  /** A buffer transferred to another thread meanwhile (detached: 0 bytes) or of another size is left to the collector. */
  give(buffer: Uint8Array) {
    if (buffer.byteLength === this.bytes && this.free.length < 2 && !this.free.includes(buffer)) this.free.push(buffer);
  }
}

/** One decoder ffmpeg: fMP4 on stdin, `size` RGB frames at `fps` on stdout, cut into RawFrames for `deliver`. */
function runDecoder(
  binaryPath: string,
  size: { fps: number; width: number; height: number },
  buffers: FrameBuffers,
  deliver: (frame: RawFrame) => void,
  onExit: (exit: FfmpegExit) => void,
): Decoder {
  const controller = new AbortController();
  const run = spawnFfmpeg(binaryPath, decoderArgs(size), { signal: controller.signal, streamInput: true });
  const frameBytes = size.width * size.height * 3;
  let frame = buffers.take();
  let filled = 0;
  let sampledAt = 0;
  const decoder: Decoder = {
    controller,
    exited: run.exited.then((exit) => onExit(exit)),
    write: (data) => (run.stdin.writable && !run.stdin.write(data) ? drained(run.stdin) : undefined),
    bufferedBytes: () => run.stdin.writableLength,
    cpuMs: 0,
    sampleCpu() {
      if (run.pid !== undefined) decoder.cpuMs = Math.max(decoder.cpuMs, processCpuMs(run.pid) ?? 0);
    },
  };
  run.stdout.on("data", (chunk: Buffer) => {
    if (controller.signal.aborted) return;
    for (let at = 0; at < chunk.length;) {
      const taken = Math.min(frameBytes - filled, chunk.length - at);
      frame.set(chunk.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === frameBytes) {
        const now = Date.now();
        if (now - sampledAt >= 1_000) {
          // Once a second, so a decoder that dies on its own has its CPU counted (stats() and stopping sample too).
          sampledAt = now;
          decoder.sampleCpu();
        }
        deliver({ width: size.width, height: size.height, rgb: frame, at: now });
        frame = buffers.take();
        filled = 0;
      }
    }
  });
  return decoder;
}

/**
 * The decoder's arguments: fMP4 from stdin with no probing delay and no buffering, one thread (at 5 frames/s a
 * sub-stream decodes in a few ms a frame; frame threads would only add latency), the frames picked at the rate and
 * scaled to the exact size the output is cut at, packed RGB on stdout.
 *
 * Frames are picked with `select` (each one at least an interval after the last picked, less 5 % for the camera's
 * timestamp jitter), not the `fps` filter, and passed through as they are: `fps` and the default constant-rate output
 * fill a gap in the stream (the viewer skipped to a keyframe while the decoder was behind) with copies of the last
 * picture, a burst of stale frames just when the machine is busiest.
 */
export function decoderArgs(size: { fps: number; width: number; height: number }): string[] {
  const interval = ((1 / size.fps) * 0.95).toFixed(4);
  return [
    ...["-hide_banner", "-nostdin", "-loglevel", "error"],
    ...["-fflags", "+nobuffer", "-flags", "low_delay", "-probesize", "32", "-analyzeduration", "0", "-threads", "1"],
    ...["-f", "mp4", "-i", "pipe:0"],
    ...["-map", "0:v:0", "-an", "-filter_threads", "1"],
    ...["-vf", `select='isnan(prev_selected_t)+gte(t-prev_selected_t,${interval})',scale=${size.width}:${size.height}:flags=area`],
    ...["-vsync", "passthrough", "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"],
  ];
}

function drained(stdin: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stdin.off("drain", done);
      stdin.off("close", done);
      resolve();
    };
    stdin.on("drain", done);
    stdin.on("close", done);
  });
}

/** A process's CPU time so far (user + system, ms) from /proc/<pid>/stat (Linux; USER_HZ is 100); null elsewhere or once it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime and stime (fields 14 and 15 of proc(5))
  } catch {
    return null;
  }
}
