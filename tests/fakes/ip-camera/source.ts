// One system-ffmpeg process per (stream, codec) drawing testsrc2 with the frame counter (or playing a video file in a
// loop) in real time (-re) and encoding it to H.264 (Annex-B, for RTSP) or JPEG (for MJPEG and snapshots). Shared by
// every viewer of that stream (a real camera encodes once, whatever the number of pulls), started on first use,
// stopped when idle.
import { type ChildProcess, spawn } from "node:child_process";
import { AnnexBSplitter, NAL, nalType } from "./annexb";
import { counterFilter } from "./counter";

/** The system ffmpeg (Debian's build has libx264); test-only, never bundled into the product. */
export const FFMPEG = "/usr/bin/ffmpeg";

export interface StreamSpec {
  width: number;
  height: number;
  fps: number;
  /** H.264 profile: baseline or main. */
  profile: "baseline" | "main";
  /** Frames between keyframes. */
  gop: number;
}

export type Codec = "h264" | "jpeg";

/** Real footage instead of testsrc2: the file, played in a loop, and its length (to start where the camera's clock is). */
export interface VideoFile {
  file: string;
  durationMs: number;
}

export interface Frame {
  /** The counter burned into the picture (frames since the camera started, at its frame rate). */
  counter: number;
  /** H.264: the access unit's NAL units (no start codes, no delimiter). JPEG: one buffer, the whole image. */
  data: Buffer[];
  keyframe: boolean;
  /** Date.now() when the frame left the encoder. */
  at: number;
}

type Listener = (frame: Frame) => void;

export class FrameSource {
  private child?: ChildProcess;
  private readonly listeners = new Set<Listener>();
  private idleTimer?: NodeJS.Timeout;
  private waiters: ((frame: Frame) => void)[] = [];
  latest?: Frame;
  /** Date.now() when the running encoder's first frame left it: a video file's first frame, again at every start. */
  firstFrameAt?: number;
  /** SPS and PPS of the H.264 stream (the same for every run with the same settings), for the SDP. */
  parameterSets?: { sps: Buffer; pps: Buffer };
  /** Date.now() of the latest frames by counter, for latency measurements (the last 600). */
  readonly sentAt = new Map<number, number>();
  /** How many ffmpeg processes this source has started (tests assert one encoder per stream). */
  spawned = 0;

  constructor(
    private readonly spec: StreamSpec,
    private readonly codec: Codec,
    private readonly epoch: number,
    private readonly idleMs = 3_000,
    private readonly video?: VideoFile,
    /** Pictures drawn by the test (packed RGB at the stream's size), encoded at the stream's rate: e.g. a PTZ head's view. */
    private readonly picture?: (width: number, height: number) => Uint8Array,
  ) {}

  get running() {
    return this.child !== undefined;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.ensureRunning();
    return () => {
      this.listeners.delete(listener);
      this.scheduleIdleStop();
    };
  }

  /** The next frame (starting the encoder if needed); `keyframe` waits for one. */
  nextFrame(keyframe = false): Promise<Frame> {
    this.ensureRunning();
    return new Promise((resolve) => {
      const waiter = (frame: Frame) => {
        if (keyframe && !frame.keyframe) return this.waiters.push(waiter);
        resolve(frame);
        this.scheduleIdleStop();
      };
      this.waiters.push(waiter);
    });
  }

  async ensureParameterSets(): Promise<{ sps: Buffer; pps: Buffer }> {
    while (!this.parameterSets) await this.nextFrame(true);
    return this.parameterSets;
  }

  stop() {
    clearTimeout(this.idleTimer);
    this.child?.kill("SIGKILL");
    this.child = undefined;
  }

  private scheduleIdleStop() {
    clearTimeout(this.idleTimer);
    if (this.listeners.size || this.waiters.length) return;
    this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
    this.idleTimer.unref();
  }

  /**
   * testsrc2 with the frame counter burned in; or the video file in a loop from its start whenever the encoder starts,
   * resampled to the stream's rate and scaled to its size, with no counter (blocks flickering in the corner would be
   * motion in a real scene).
   */
  private input(offset: number): string[] {
    const { width, height, fps } = this.spec;
    if (this.picture) return ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0"];
    if (!this.video) {
      return ["-re", "-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=${fps}`, "-vf", counterFilter(width, offset)];
    }
    // From the start of the file: an input seek (-ss) is taken again at every loop of -stream_loop, so each pass
    // after the first would be short of its first seconds.
    return ["-stream_loop", "-1", "-re", "-i", this.video.file, "-an", "-vf", `fps=${fps},scale=${width}:${height},setsar=1`];
  }

  /** Writes the drawn pictures at the stream's rate while the encoder runs (a picture is skipped while it is behind). */
  private feed(child: ChildProcess) {
    const { width, height, fps } = this.spec;
    let ready = true;
    child.stdin!.on("drain", () => (ready = true));
    child.stdin!.on("error", () => undefined); // killed: the timer stops below
    const timer = setInterval(() => {
      if (ready) ready = child.stdin!.write(this.picture!(width, height));
    }, 1000 / fps);
    child.once("exit", () => clearInterval(timer));
  }

  private ensureRunning() {
    clearTimeout(this.idleTimer);
    if (this.child) return;
    const { fps } = this.spec;
    const offset = Math.round(((Date.now() - this.epoch) * fps) / 1000);
    const args = ["-hide_banner", "-loglevel", "error", "-nostdin", ...this.input(offset), "-threads", "1"];
    if (this.codec === "h264") {
      const { profile, gop } = this.spec;
      args.push("-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-profile:v", profile, "-pix_fmt", "yuv420p");
      args.push("-g", String(gop), "-keyint_min", String(gop), "-x264-params", `aud=1:repeat-headers=1:sliced-threads=0${profile === "main" ? ":cabac=1" : ""}`);
      args.push("-flush_packets", "1", "-f", "h264", "pipe:1");
    } else {
      args.push("-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj420p", "-flush_packets", "1", "-f", "mjpeg", "pipe:1");
    }
    const child = spawn(FFMPEG, args, { stdio: [this.picture ? "pipe" : "ignore", "pipe", "pipe"] });
    const startedAt = Date.now();
    if (this.picture) this.feed(child);
    this.child = child;
    this.spawned++;
    let index = 0;
    const emit = (data: Buffer[], keyframe: boolean) => {
      const frame: Frame = { counter: offset + index++, data, keyframe, at: Date.now() };
      if (index === 1) this.firstFrameAt = frame.at;
      this.latest = frame;
      this.sentAt.set(frame.counter, frame.at);
      this.sentAt.delete(frame.counter - 600);
      for (const listener of this.listeners) listener(frame);
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) waiter(frame);
    };
    if (this.codec === "h264") {
      const splitter = new AnnexBSplitter((nals) => {
        const sps = nals.find((n) => nalType(n) === NAL.SPS);
        const pps = nals.find((n) => nalType(n) === NAL.PPS);
        if (sps && pps) this.parameterSets = { sps, pps };
        emit(
          nals,
          nals.some((n) => nalType(n) === NAL.IDR),
        );
      });
      child.stdout!.on("data", (chunk: Buffer) => splitter.push(chunk));
    } else {
      let buffer = Buffer.alloc(0);
      child.stdout!.on("data", (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        // ffmpeg's JPEGs carry no embedded thumbnail, so the first EOI marker (FF D9) ends the image.
        for (let end = buffer.indexOf(EOI, 2); end >= 0; end = buffer.indexOf(EOI, 2)) {
          emit([Buffer.from(buffer.subarray(0, end + 2))], true);
          buffer = buffer.subarray(end + 2);
        }
      });
    }
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on("exit", (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      if (signal !== "SIGKILL") console.error(`fake camera: ffmpeg exited (${code ?? signal}): ${stderr}`);
      // Restart for waiting viewers, unless ffmpeg cannot even start (no crash loop).
      if ((this.listeners.size || this.waiters.length) && Date.now() - startedAt > 1_000) this.ensureRunning();
    });
  }
}

const EOI = Buffer.from([0xff, 0xd9]);
