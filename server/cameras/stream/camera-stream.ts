// One camera's live stream in this process: the single ffmpeg pulling it (when this process owns the camera; else
// the owner's relay), its status, the current GOP kept for joiners, and the viewers and holds that keep it running
// (stopped when idle, restarted with backoff when it drops, taken over when the owner's relay ends).
import { logger } from "../../logger";
import type { CameraSource } from "../source";
import { ffmpegBinary, type FfmpegResolution } from "./ffmpeg-binary";
import { Fmp4Splitter } from "./fmp4-splitter";
import { buildPullArgs } from "./pull-args";
import { openPull } from "./pull-target";
import type { Claim } from "./presence";
import { openRelay } from "./relay";
import type { PullRelay } from "./pull-types";
import { GopKeeper } from "./kept-gop";
import type { KeptGop } from "./snapshot";
import { spawnFfmpeg, type FfmpegExit } from "./spawn-ffmpeg";
import { mimeOf, offlineReason, type StreamState, type StreamStatus } from "./status";
import { Viewer, type ViewerLimits, type ViewerSink } from "./viewer";

/** A stream's current GOP, and whether it was transcoded (then not full-size: a snapshot cannot use it). */
type StreamGop = KeptGop & { transcoded: boolean };

export interface StreamSettings {
  /** Stop ffmpeg this long after the last viewer or hold leaves (CAMERA_STREAM_IDLE_MS). */
  idleMs: number;
  /** Restart delays after a drop: first, then doubling up to max; reset once frames arrive. */
  backoff: { firstMs: number; maxMs: number };
  /** ffmpeg's socket timeout: a camera that stops answering ends the pull after this long. */
  timeoutMs: number;
  viewerLimits: ViewerLimits;
  /** Told every status change (the registry writes it to cameras.status). */
  onStatus: (cameraId: string, status: StreamStatus) => void;
  /** The ffmpeg to run (tests may hand one in; production finds it once per process). */
  binary?: () => Promise<FfmpegResolution>;
  /** Asked before each pull whether this process owns the camera (default: always; one process). */
  claim?: (cameraId: string) => Promise<Claim>;
  /** Told when this process stops pulling the camera, so another may own it. */
  release?: (cameraId: string) => void;
  /** Told when the owner's relay said the camera changed: this stream closed itself, and a new one must replace it. */
  changed?: (stream: CameraStream) => void;
}

/** The size a non-H.264 camera is transcoded to, as a sub-stream usually is (aspect kept, fitted inside). */
export const TRANSCODE_SIZE = { width: 640, height: 360 };
/** After the owner's relay ends, the camera is claimed again this soon (the owner's lock went with its process). */
const RELAY_RETRY_MS = 250;
/** The close code of a viewer whose camera was changed or deleted (supervisor's forget()): the studio reconnects to what is stored now. */
export const CAMERA_CHANGED = 1012;

export class CameraStream {
  private readonly viewers = new Set<Viewer>();
  private holds = 0;
  private current: StreamStatus;
  private run: { controller: AbortController; exited: Promise<void> } | undefined;
  /** The current GOP, for joiners and snapshots. */
  private readonly kept = new GopKeeper();
  private idleTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;
  /** Set when a copy pull turned out not to be H.264 (the stored codec was unknown or wrong). */
  private forceTranscode = false;
  /** Set when ffmpeg was stopped to be started again at once (the switch to transcoding, or to full probing). */
  private restartNow = false;
  /** Set when a fast start (no stream analysis) gave no init segment: the camera's SDP lacks SPS/PPS. */
  private fullProbe = false;
  /** Set when even the transcode gave no H.264 a browser could play. */
  private unplayable = false;
  /** Set while an idle stop is under way: a viewer or hold coming meanwhile restarts the pull at once. */
  private idleStopping = false;
  /** This process holds the camera's ownership: its ffmpeg pulls it and its status is written for all. */
  private owner = false;
  /** Relay runs in a row that gave no frames (the owner had none yet, or was going away). */
  private relayFailures = 0;
  /** ffmpeg processes started for this camera (tests: one per camera, however many viewers). */
  starts = 0;

  constructor(
    public source: CameraSource,
    private readonly settings: StreamSettings,
  ) {
    this.current = { type: "status", status: "connecting", reason: null, codec: source.codec, mime: null, width: null, height: null, transcoded: this.transcoding };
  }

  get status(): StreamStatus {
    return this.current;
  }

  get viewerCount() {
    return this.viewers.size;
  }

  get running() {
    return this.run !== undefined;
  }

  private get transcoding() {
    return this.forceTranscode || (this.source.codec !== null && this.source.codec !== "h264");
  }

  private get wanted() {
    return !this.closed && (this.viewers.size > 0 || this.holds > 0);
  }

  /** A new viewer gets the status, then (if running) the init segment and the current GOP, so it starts at once. */
  watch(sink: ViewerSink): Viewer {
    const viewer = new Viewer(sink, this.settings.viewerLimits);
    this.viewers.add(viewer);
    viewer.status(this.current);
    this.kept.replay(viewer);
    this.wake();
    return viewer;
  }

  leave(viewer: Viewer) {
    this.viewers.delete(viewer);
    this.idleIfUnwanted();
  }

  hold(): () => void {
    this.holds += 1;
    this.wake();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      this.idleIfUnwanted();
    };
  }

  /** Stops ffmpeg now and closes every viewer (camera deleted, its address changed, or shutdown). */
  async close(code = 1001, reason = "camera stream closed") {
    this.closed = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.retryTimer);
    for (const viewer of this.viewers) viewer.close(code, reason);
    this.viewers.clear();
    this.kept.settle(null);
    await this.stop();
    this.disown();
  }

  /** Another process owns the camera now (this one lost its database connection meanwhile): relay from it instead. */
  ownershipLost() {
    this.owner = false;
    this.restartNow = true;
    this.run?.controller.abort();
  }

  private disown() {
    if (!this.owner) return;
    this.owner = false;
    this.settings.release?.(this.source.cameraId);
  }

  private wake() {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.run && !this.retryTimer) void this.start();
  }

  private idleIfUnwanted() {
    if (this.wanted || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.wanted) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.idleStopping = this.running;
      // Backing off after a failure, nothing runs to stop: idle now, the failure no longer anyone's concern.
      if (!this.running) return this.stoppedIdle();
      void this.stop();
    }, this.settings.idleMs);
    this.idleTimer.unref();
  }

  private async stop() {
    const run = this.run;
    if (!run) return;
    run.controller.abort();
    await run.exited;
  }

  private async start() {
    if (this.run || !this.wanted) return;
    const controller = new AbortController();
    let settle!: () => void;
    this.run = { controller, exited: new Promise((resolve) => (settle = resolve)) };
    this.kept.clear();
    const claim: Claim =
      this.owner || !this.settings.claim ? { owner: true } : await this.settings.claim(this.source.cameraId).catch((): Claim => ({ owner: false, relayUrl: null }));
    if (claim.owner) this.owner = true;
    this.setStatus({ status: "connecting", reason: null, mime: null, width: null, height: null });
    if (!claim.owner) {
      const ended = claim.relayUrl && !controller.signal.aborted ? await this.relayFrom(claim.relayUrl, controller) : { hadFrames: false, code: 0 };
      this.run = undefined;
      this.kept.clear();
      settle();
      return this.afterRelay(ended.hadFrames, ended.code);
    }
    let exit: FfmpegExit;
    let hadFrames = false;
    let sawInit = false;
    let relay: PullRelay | null = null;
    const fastStart = !this.fullProbe && /^rtsps?:/i.test(this.source.viewUrl);
    try {
      const found = await (this.settings.binary ?? ffmpegBinary)();
      if (!found.ok) {
        exit = { code: null, signal: null, stderr: "", spawnError: new Error(found.reason) };
      } else {
        const target = await openPull(this.source.viewUrl, this.source.credentials);
        relay = target.relay;
        const transcode = this.transcoding;
        const args = buildPullArgs(found.binary, {
          url: target.url,
          timeoutMs: this.settings.timeoutMs,
          video: transcode ? { mode: "transcode", ...TRANSCODE_SIZE } : { mode: "copy" },
          fragmentEveryFrame: true,
          fastStart,
        });
        if (controller.signal.aborted) throw controller.signal.reason;
        this.starts += 1;
        const ffmpeg = spawnFfmpeg(found.binary.path, args, { signal: controller.signal });
        const splitter = new Fmp4Splitter();
        ffmpeg.stdout.on("data", (chunk: Buffer) => {
          try {
            for (const segment of splitter.push(chunk)) {
              if (segment.kind === "init") {
                sawInit = true;
                this.onInit(segment.data, transcode, controller);
              } else {
                hadFrames = true;
                this.onFragment(segment.data, segment.keyframe);
              }
            }
          } catch (error) {
            logger.warn({ cameraId: this.source.cameraId, err: error }, "camera stream: unreadable output, restarting");
            controller.abort();
          }
        });
        exit = await ffmpeg.exited;
        // ffmpeg only saw the relay's side close: say why, in the words offlineReason reads.
        if (relay?.upstreamError) exit = { ...exit, stderr: `${exit.stderr}\nunreachable: the camera connection failed (${relay.upstreamError})` };
      }
    } catch (error) {
      // The address policy refused the camera, its name did not resolve, or the URL is unusable.
      exit = { code: 1, signal: null, stderr: `unreachable: ${(error as Error).name}` };
    }
    relay?.close();
    this.run = undefined;
    this.kept.clear();
    settle();
    if (fastStart && !sawInit && !controller.signal.aborted && ["stream ended", "unsupported codec"].includes(offlineReason(exit, false))) {
      // The camera answered but ffmpeg could not size the stream without analysing it: analyse from now on.
      this.fullProbe = true;
      this.restartNow = true;
    }
    this.afterExit(exit, hadFrames, controller.signal.aborted);
  }

  /** Idle stop: nobody is watching; the card goes back to offline with no fault named, and another process may own it. */
  private stoppedIdle() {
    this.setStatus({ status: "offline", reason: null, mime: null, width: null, height: null });
    this.disown();
  }

  private afterExit(exit: FfmpegExit, hadFrames: boolean, stoppedByUs: boolean) {
    if (this.closed) return;
    const idleStop = this.idleStopping;
    this.idleStopping = false;
    // A restart asked for, or a viewer or hold that came while the idle stop was under way: nothing failed.
    if (this.restartNow || idleStop) {
      this.restartNow = false;
      if (this.wanted) return void this.start();
    }
    if (stoppedByUs && !this.wanted) return this.stoppedIdle();
    const reason = this.unplayable ? "unsupported codec" : offlineReason(exit, hadFrames);
    this.unplayable = false;
    if (hadFrames) this.failures = 0;
    this.setStatus({ status: "offline", reason, mime: null, width: null, height: null });
    if (!this.wanted) return;
    const delay = Math.min(this.settings.backoff.maxMs, this.settings.backoff.firstMs * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.start();
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * Plays the owner's relay (the messages its viewers get) until it ends; whether frames came. The owner's status is
   * shown as it is, and written by the owner alone.
   */
  private relayFrom(relayUrl: string, controller: AbortController): Promise<{ hadFrames: boolean; code: number }> {
    return new Promise((resolve) => {
      const ws = openRelay(relayUrl, this.source.userId, this.source.cameraId);
      const splitter = new Fmp4Splitter();
      let hadFrames = false;
      let transcoded = this.transcoding;
      const abort = () => ws.terminate();
      controller.signal.addEventListener("abort", abort, { once: true });
      ws.on("error", () => {}); // the close that follows ends the run
      ws.on("message", (data: Buffer, isBinary) => {
        try {
          if (!isBinary) {
            const owners = JSON.parse(data.toString()) as StreamStatus;
            transcoded = owners.transcoded;
            this.setStatus({ status: owners.status, reason: owners.reason, mime: owners.mime, width: owners.width, height: owners.height, transcoded });
            return;
          }
          for (const segment of splitter.push(data)) {
            if (segment.kind === "init") this.onInit(segment.data, transcoded, controller);
            else {
              hadFrames = true;
              this.onFragment(segment.data, segment.keyframe);
            }
          }
        } catch (error) {
          logger.warn({ cameraId: this.source.cameraId, err: error }, "camera relay: unreadable message, reconnecting");
          ws.terminate();
        }
      });
      ws.once("close", (code: number) => {
        controller.signal.removeEventListener("abort", abort);
        resolve({ hadFrames, code });
      });
    });
  }

  private afterRelay(hadFrames: boolean, code: number) {
    if (this.closed) return;
    this.restartNow = false;
    const idleStop = this.idleStopping;
    this.idleStopping = false;
    if (code === CAMERA_CHANGED) {
      // The camera was changed or deleted through the owner: taken as the change notice itself (which may come late,
      // or not at all). Viewers reconnect to the new address; no hold keeps this stream claiming the old one.
      void this.close(CAMERA_CHANGED, "camera changed");
      this.settings.changed?.(this);
      return;
    }
    if (!this.wanted) {
      this.setStatus({ status: "offline", reason: null, mime: null, width: null, height: null });
      return;
    }
    if (idleStop) return void this.start(); // a viewer came back while this relay was being let go
    // The owner went away (its lock with it), stopped, or was not the owner any more: claim the camera again soon.
    this.relayFailures = hadFrames ? 0 : this.relayFailures + 1;
    const delay = Math.min(this.settings.backoff.maxMs, RELAY_RETRY_MS * 2 ** Math.max(0, this.relayFailures - 1));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.start();
    }, delay);
    this.retryTimer.unref();
  }

  private onInit(init: Buffer, transcoded: boolean, controller: AbortController) {
    const described = mimeOf(init);
    if (!described) {
      // Not H.264 (e.g. H.265 with an unknown stored codec): a browser could not play it. Transcode instead, at once.
      if (!transcoded) {
        this.forceTranscode = true;
        this.restartNow = true;
      } else this.unplayable = true;
      controller.abort();
      return;
    }
    this.kept.setInit(init);
    this.setStatus({ status: "connecting", reason: null, mime: described.mime, width: described.width, height: described.height, transcoded });
    for (const viewer of this.viewers) viewer.init(init);
  }

  private onFragment(data: Buffer, keyframe: boolean) {
    if (!this.kept.init) return;
    if (this.current.status !== "online") {
      this.failures = 0;
      this.setStatus({ status: "online", reason: null });
    }
    for (const viewer of this.viewers) viewer.fragment(data, keyframe);
    this.kept.push(data, keyframe);
  }

  private setStatus(change: Partial<StreamStatus> & { status: StreamState }) {
    const next: StreamStatus = { ...this.current, ...change, codec: this.source.codec, transcoded: change.transcoded ?? this.transcoding };
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    const stateChanged = next.status !== this.current.status || next.reason !== this.current.reason;
    this.current = next;
    if (next.status === "offline") this.kept.settle(null);
    for (const viewer of this.viewers) viewer.status(next);
    if (stateChanged && this.owner) this.settings.onStatus(this.source.cameraId, next);
  }

  /** The current GOP (init + fragments from the latest keyframe), for a snapshot decoded without a new pull. */
  latestGop(): StreamGop | null {
    const gop = this.kept.latest();
    return gop && { ...gop, transcoded: this.current.transcoded };
  }

  /**
   * The current GOP, or the first one of this stream's pull or relay that is (re)starting (after a takeover, a
   * restart): a snapshot waits for it rather than opening a second pull of the camera. Null at once when the stream
   * is not wanted or is offline (backing off), and when it goes offline or `timeoutMs` passes first.
   */
  async nextGop(timeoutMs: number): Promise<StreamGop | null> {
    if (this.latestGop() || !this.wanted || this.current.status === "offline") return this.latestGop();
    const gop = await this.kept.next(timeoutMs);
    return gop && { ...gop, transcoded: this.current.transcoded };
  }
}
