// One viewer of a camera stream: its own byte-bounded queue in front of its transport, so a viewer that cannot
// keep up costs bounded memory and is skipped to the next keyframe instead of slowing the others down.
import type { StreamStatus } from "./status";

/** Where a viewer's messages go (a WebSocket in production). `done` is called once the bytes left our process. */
export interface ViewerSink {
  send(data: Buffer | string, done: (error?: Error) => void): void;
  close(code: number, reason: string): void;
}

export interface ViewerLimits {
  /** Bytes handed to the transport and not yet written out: past this, messages wait in the queue. */
  inFlightBytes: number;
  /** Bytes waiting in the queue: past this, the queue is dropped and the viewer waits for a keyframe fragment. */
  queueBytes: number;
}

export const DEFAULT_VIEWER_LIMITS: ViewerLimits = { inFlightBytes: 256 * 1024, queueBytes: 2 * 1024 * 1024 };

type Kind = "status" | "init" | "fragment";
type Message = { data: Buffer | string; bytes: number; kind: Kind };

export class Viewer {
  private queue: Message[] = [];
  private queued = 0;
  private inFlight = 0;
  /** Set on join, after a skip and after each init segment: no fragment goes out until one that starts on a keyframe. */
  private needKeyframe = true;
  private closed = false;
  /** Times this viewer was skipped to a keyframe (for tests and the log). */
  skips = 0;
  /** The most bytes ever held for this viewer (queue + in flight): what bounded memory means. */
  peakBytes = 0;

  constructor(
    private readonly sink: ViewerSink,
    private readonly limits: ViewerLimits = DEFAULT_VIEWER_LIMITS,
  ) {}

  status(status: StreamStatus) {
    // Statuses are small and always delivered in order, even to a viewer being skipped.
    this.enqueue(JSON.stringify(status), "status");
  }

  /** A fresh init segment (ffmpeg (re)started): whatever was queued belonged to the old stream. */
  init(data: Buffer) {
    this.drop(["init", "fragment"]);
    this.needKeyframe = true;
    this.enqueue(data, "init");
  }

  fragment(data: Buffer, keyframe: boolean) {
    if (this.needKeyframe && !keyframe) return;
    this.needKeyframe = false;
    if (this.queued + data.length > this.limits.queueBytes) {
      // Too far behind: what is queued is stale. Drop it and restart at the next keyframe (this one, if it is one).
      this.drop(["fragment"]);
      this.skips += 1;
      if (!keyframe || data.length > this.limits.queueBytes) {
        this.needKeyframe = true;
        return;
      }
    }
    this.enqueue(data, "fragment");
  }

  close(code: number, reason: string) {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.queued = 0;
    this.sink.close(code, reason);
  }

  get isClosed() {
    return this.closed;
  }

  /** Bytes held for this viewer now (queue and in flight). */
  get heldBytes() {
    return this.queued + this.inFlight;
  }

  /** Statuses always stay (tiny, and a state change must not be missed); the init segment stays unless replaced. */
  private drop(kinds: Kind[]) {
    this.queue = this.queue.filter((message) => !kinds.includes(message.kind));
    this.queued = this.queue.reduce((sum, message) => sum + message.bytes, 0);
  }

  private enqueue(data: Buffer | string, kind: Kind) {
    if (this.closed) return;
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.length;
    this.queue.push({ data, bytes, kind });
    this.queued += bytes;
    this.peakBytes = Math.max(this.peakBytes, this.heldBytes);
    this.pump();
  }

  private pump() {
    while (!this.closed && this.queue.length && (this.inFlight === 0 || this.inFlight + this.queue[0]!.bytes <= this.limits.inFlightBytes)) {
      const message = this.queue.shift()!;
      this.queued -= message.bytes;
      this.inFlight += message.bytes;
      this.sink.send(message.data, (error) => {
        this.inFlight -= message.bytes;
        if (error) this.close(1011, "send failed");
        else this.pump();
      });
    }
  }
}
