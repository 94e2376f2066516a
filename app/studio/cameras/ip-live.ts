// An IP camera's live picture in a <video>: the server's fMP4 over the WebSocket /api/cameras/{id}/live fed to
// Media Source Extensions, kept near the live edge with bounded memory, reconnecting with backoff. No framework.
import type { CameraOfflineReason } from "../../schemas/cameras";

export type LiveState = "connecting" | "online" | "offline";

/** What the card and the preview show; `reason` says why it is offline (the server's words, or "connection lost"). */
export interface LiveStatus {
  state: LiveState;
  reason: CameraOfflineReason | "connection lost" | "not found" | "not signed in" | "unsupported in this browser" | null;
  codec: string | null;
  mime: string | null;
  width: number | null;
  height: number | null;
  transcoded: boolean;
}

/** Behind the buffered end by more than this, the video jumps forward (a stall, a slow tab, or a joiner's kept GOP). */
export const MAX_LAG_S = 0.6;
/** Where a jump lands: a little before the end, so playback has a frame to decode into. */
export const JUMP_MARGIN_S = 0.1;
/** Behind by more than this (but not enough to jump), playback runs a little fast until it is back near the edge. */
export const CATCH_UP_S = 0.25;
export const CATCH_UP_RATE = 1.15;
/** Buffered picture kept behind the playhead; older data is removed once it exceeds this by TRIM_SLACK_S. */
export const KEEP_BEHIND_S = 10;
export const TRIM_SLACK_S = 5;
/** Appends waiting while the SourceBuffer is busy; above this the queue is dropped and the parser waits for a keyframe. */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 10_000;

/** The server's close codes after which reconnecting cannot help. */
const FINAL_CLOSE: Record<number, LiveStatus["reason"]> = { 4401: "not signed in", 4404: "not found" };

export interface Range {
  start: number;
  end: number;
}

export interface EdgeDecision {
  /** Seek here (null: stay). */
  seekTo: number | null;
  /** Remove buffered media before this time (null: keep everything). */
  removeBefore: number | null;
  /** 1, or a little faster to close a small lag without the visible jump of a seek. */
  playbackRate: number;
}

/** Where the playhead should be and what may be dropped, from the playhead and the buffered ranges. */
export function liveEdgeDecision(currentTime: number, ranges: Range[]): EdgeDecision {
  const last = ranges[ranges.length - 1];
  if (!last) return { seekTo: null, removeBefore: null, playbackRate: 1 };
  const inside = ranges.some((r) => currentTime >= r.start && currentTime <= r.end);
  const behind = last.end - currentTime;
  const seekTo = !inside || behind > MAX_LAG_S ? Math.max(last.start, last.end - JUMP_MARGIN_S) : null;
  const playhead = seekTo ?? currentTime;
  const first = ranges[0]!;
  const removeBefore = playhead - first.start > KEEP_BEHIND_S + TRIM_SLACK_S ? playhead - KEEP_BEHIND_S : null;
  const playbackRate = seekTo === null && behind > CATCH_UP_S ? CATCH_UP_RATE : 1;
  return { seekTo, removeBefore, playbackRate };
}

/** The first box of an MP4 message: "ftyp"/"moov" start an init segment, "moof"/"styp" a fragment. */
export function boxType(data: ArrayBuffer): string {
  if (data.byteLength < 8) return "";
  return String.fromCharCode(...new Uint8Array(data, 4, 4));
}

export function isInitSegment(data: ArrayBuffer): boolean {
  const type = boxType(data);
  return type === "ftyp" || type === "moov";
}

const LIVE_STATES: readonly string[] = ["connecting", "online", "offline"];

/** A text message from the server as a status, or null when it is not one (ignored: newer servers may say more). */
export function parseStatusMessage(text: string): LiveStatus | null {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!message || message.type !== "status" || typeof message.status !== "string" || !LIVE_STATES.includes(message.status)) return null;
  const text_ = (value: unknown) => (typeof value === "string" && value ? value : null);
  const int = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  return {
    state: message.status as LiveState,
    reason: text_(message.reason) as LiveStatus["reason"],
    codec: text_(message.codec),
    mime: text_(message.mime),
    width: int(message.width),
    height: int(message.height),
    transcoded: message.transcoded === true,
  };
}

/** The wait before reconnect attempt `n` (0-based): doubling from 0.5 s, at most 10 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.max(0, attempt));
}

type MediaSourceCtor = typeof MediaSource;

/** ManagedMediaSource where the browser has it (Safari on iPhone has only that), else MediaSource. */
export function mediaSourceClass(scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): MediaSourceCtor | null {
  return ((scope.ManagedMediaSource ?? scope.MediaSource) as MediaSourceCtor | undefined) ?? null;
}

export function liveUrl(cameraId: string, location: Pick<Location, "protocol" | "host"> = window.location): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/cameras/${encodeURIComponent(cameraId)}/live`;
}

const INITIAL_STATUS: LiveStatus = { state: "connecting", reason: null, codec: null, mime: null, width: null, height: null, transcoded: false };
/** How often the live edge is checked besides after each append (a paused or stalled video gets no appends). */
const EDGE_CHECK_MS = 250;

/**
 * Plays one IP camera's live stream in a video element until `dispose()`. The socket opens at once; status
 * changes go to `onStatus`. One MediaSource per stream start: a new init segment after media was appended
 * (ffmpeg restarted, maybe with another codec and timestamps from zero) replaces the MediaSource.
 */
export class IpLivePlayer {
  private status: LiveStatus = INITIAL_STATUS;
  private socket: WebSocket | null = null;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private edgeTimer: ReturnType<typeof setInterval> | undefined;
  private disposed = false;
  /** The stream's MIME as last announced by a status message. */
  private mime: string | null = null;
  private mediaSource: MediaSource | null = null;
  private objectUrl: string | null = null;
  private buffer: SourceBuffer | null = null;
  /** The MIME the current SourceBuffer was made for. */
  private bufferMime: string | null = null;
  private queue: ArrayBuffer[] = [];
  private queuedBytes = 0;
  /** Whether fragments were appended since the last init segment (a new init then means a new stream). */
  private fragmentsSinceInit = false;
  private hasInit = false;

  constructor(
    private readonly cameraId: string,
    private readonly video: HTMLVideoElement,
    private readonly onStatus: (status: LiveStatus) => void,
  ) {
    this.connect();
    this.edgeTimer = setInterval(() => this.keepLive(), EDGE_CHECK_MS);
  }

  get current(): LiveStatus {
    return this.status;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.edgeTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = socket.onmessage = socket.onerror = socket.onopen = null;
      socket.close(1000);
    }
    this.detachMedia();
  }

  private setStatus(status: LiveStatus): void {
    this.status = status;
    if (!this.disposed) this.onStatus(status);
  }

  private connect(): void {
    if (this.disposed) return;
    if (!mediaSourceClass()) {
      this.setStatus({ ...INITIAL_STATUS, state: "offline", reason: "unsupported in this browser" });
      return;
    }
    const socket = new WebSocket(liveUrl(this.cameraId));
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data === "string") this.handleStatus(event.data);
      else if (event.data instanceof ArrayBuffer) this.handleMedia(event.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const final = FINAL_CLOSE[event.code];
      if (final) return this.setStatus({ ...this.status, state: "offline", reason: final });
      this.setStatus({ ...this.status, state: "offline", reason: "connection lost" });
      this.reconnectTimer = setTimeout(() => this.connect(), reconnectDelay(this.attempt++));
    };
  }

  private handleStatus(text: string): void {
    const status = parseStatusMessage(text);
    if (!status) return;
    // A fresh init segment follows every status that names a MIME; the MIME is what it will be parsed as.
    if (status.mime) this.mime = status.mime;
    this.setStatus(status);
  }

  private handleMedia(data: ArrayBuffer): void {
    this.attempt = 0;
    if (isInitSegment(data)) {
      if (!this.mediaSource || this.fragmentsSinceInit || (this.buffer && this.bufferMime !== this.mime)) this.newMediaSource();
      this.hasInit = true;
      this.fragmentsSinceInit = false;
      this.enqueue(data);
      return;
    }
    // A fragment before its init segment cannot be parsed: wait for the next start.
    if (!this.hasInit) return;
    this.fragmentsSinceInit = true;
    this.enqueue(data);
  }

  private newMediaSource(): void {
    this.detachMedia();
    const Source = mediaSourceClass();
    if (!Source) return;
    const mediaSource = new Source();
    this.mediaSource = mediaSource;
    // ManagedMediaSource plays only with remote playback off (AirPlay cannot carry MSE).
    this.video.disableRemotePlayback = true;
    this.objectUrl = URL.createObjectURL(mediaSource);
    this.video.src = this.objectUrl;
    const mime = this.mime ?? 'video/mp4; codecs="avc1.42c01e"';
    mediaSource.addEventListener(
      "sourceopen",
      () => {
        if (this.mediaSource !== mediaSource) return;
        if (!Source.isTypeSupported(mime)) {
          this.setStatus({ ...this.status, state: "offline", reason: "unsupported codec" });
          return;
        }
        const buffer = mediaSource.addSourceBuffer(mime);
        buffer.mode = "segments";
        buffer.addEventListener("updateend", () => {
          if (this.buffer !== buffer) return;
          this.keepLive();
          this.pump();
        });
        this.buffer = buffer;
        this.bufferMime = mime;
        this.pump();
      },
      { once: true },
    );
  }

  private detachMedia(): void {
    this.buffer = null;
    this.bufferMime = null;
    this.mediaSource = null;
    this.queue = [];
    this.queuedBytes = 0;
    this.hasInit = false;
    this.fragmentsSinceInit = false;
    if (this.objectUrl) {
      this.video.removeAttribute("src");
      this.video.load();
      URL.revokeObjectURL(this.objectUrl);
      this.objectUrl = null;
    }
  }

  private enqueue(data: ArrayBuffer): void {
    if (this.queuedBytes + data.byteLength > MAX_QUEUED_BYTES && !isInitSegment(data)) {
      // The tab fell too far behind: drop what waits; after abort() the parser skips to the next keyframe.
      this.queue = this.queue.filter(isInitSegment);
      this.queuedBytes = this.queue.reduce((n, d) => n + d.byteLength, 0);
      if (this.buffer && this.mediaSource?.readyState === "open") this.buffer.abort();
    }
    this.queue.push(data);
    this.queuedBytes += data.byteLength;
    this.pump();
  }

  private pump(): void {
    const buffer = this.buffer;
    if (!buffer || buffer.updating || this.mediaSource?.readyState !== "open") return;
    const next = this.queue.shift();
    if (!next) return;
    this.queuedBytes -= next.byteLength;
    try {
      buffer.appendBuffer(next);
    } catch (error) {
      // QuotaExceededError: drop old picture and wait for the next start; anything else is a broken stream.
      console.warn("Live view: append failed", error);
      this.newMediaSource();
    }
    if (this.video.paused) this.video.play().catch(() => {});
  }

  /** Jumps to the live edge when behind and trims old buffered media (see liveEdgeDecision). */
  private keepLive(): void {
    const buffer = this.buffer;
    if (!buffer || buffer.updating || this.mediaSource?.readyState !== "open") return;
    const ranges: Range[] = [];
    for (let i = 0; i < buffer.buffered.length; i++) ranges.push({ start: buffer.buffered.start(i), end: buffer.buffered.end(i) });
    const decision = liveEdgeDecision(this.video.currentTime, ranges);
    if (decision.seekTo !== null) this.video.currentTime = decision.seekTo;
    if (this.video.playbackRate !== decision.playbackRate) this.video.playbackRate = decision.playbackRate;
    if (decision.removeBefore !== null && ranges[0]) buffer.remove(ranges[0].start, decision.removeBefore);
    if (this.video.paused && ranges.length) this.video.play().catch(() => {});
  }
}
