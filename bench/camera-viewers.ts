// Viewers for the cameras benchmark: a Node client of the live WebSocket (/api/cameras/{id}/live) that counts
// stalls from the fMP4 fragments it receives, and a sampler of the decoded frames in headless Chromium that reads
// the fake camera's burned-in frame counter back from pixels.
import type { Page } from "@playwright/test";
import WebSocket from "ws";
import { counterBlock, readCounter } from "../tests/fakes/ip-camera/counter";

/** Frames in one WebSocket message: the sample counts of every `trun` in its `moof` boxes (ISO/IEC 14496-12). */
export function fragmentSamples(message: Buffer): number {
  let samples = 0;
  const walk = (from: number, to: number, inside: readonly string[]) => {
    for (let at = from; at + 8 <= to;) {
      const size = message.readUInt32BE(at);
      const type = message.toString("latin1", at + 4, at + 8);
      if (size < 8 || at + size > to) return; // not a box (or cut short): stop, as a player would
      if (type === "trun")
        samples += message.readUInt32BE(at + 12); // after the header and version/flags
      else if (inside.includes(type)) walk(at + 8, at + size, inside);
      at += size;
    }
  };
  walk(0, message.length, ["moof", "traf"]);
  return samples;
}

/**
 * A live player without a jitter buffer: it plays each fragment's frames at the camera's frame rate from when the
 * fragment arrives, and waits when the next fragment is late. A wait over `stallMs` is a stall (the picture froze).
 */
export class PlaybackModel {
  stalls = 0;
  longestWaitMs = 0;
  maxArrivalGapMs = 0;
  fragments = 0;
  frames = 0;
  private playedUntil: number | undefined;
  private lastArrival: number | undefined;

  constructor(
    private readonly fps: number,
    private readonly stallMs = 1000,
  ) {}

  fragment(at: number, samples: number): void {
    if (this.playedUntil !== undefined && this.lastArrival !== undefined) {
      const wait = at - this.playedUntil;
      if (wait > this.longestWaitMs) this.longestWaitMs = wait;
      if (wait > this.stallMs) this.stalls += 1;
      this.maxArrivalGapMs = Math.max(this.maxArrivalGapMs, at - this.lastArrival);
    }
    this.playedUntil = Math.max(at, this.playedUntil ?? at) + (samples * 1000) / this.fps;
    this.lastArrival = at;
    this.fragments += 1;
    this.frames += samples;
  }
}

export interface LiveStatus {
  type: "status";
  status: "connecting" | "online" | "offline";
  reason: string | null;
  mime: string | null;
  width: number | null;
  height: number | null;
}

/** One viewer of the live WebSocket in this process. `restart()` begins a fresh measuring window. */
export class WsViewer {
  readonly statuses: LiveStatus[] = [];
  inits = 0;
  bytes = 0;
  model: PlaybackModel;
  closed: { code: number; reason: string } | undefined;
  /** Called with every binary message (init segments and fragments), e.g. to decode what this viewer receives. */
  onBinary: ((data: Buffer) => void) | undefined;
  private readonly socket: WebSocket;
  private firstFragment!: () => void;
  /** Settles at the first fragment (the viewer is watching) or rejects if the socket closes first. */
  readonly watching: Promise<void>;

  constructor(
    url: string,
    headers: Record<string, string>,
    private readonly fps: number,
  ) {
    this.model = new PlaybackModel(fps);
    this.socket = new WebSocket(url, { headers, perMessageDeflate: false });
    this.watching = new Promise<void>((resolve, reject) => {
      this.firstFragment = resolve;
      this.socket.once("close", (code, reason) => reject(new Error(`the live WebSocket closed with ${code} ${reason.toString()}`)));
      this.socket.once("error", reject);
    });
    this.socket.on("close", (code, reason) => (this.closed = { code, reason: reason.toString() }));
    this.socket.on("error", () => {}); // after the first fragment an error shows as the close and in the stalls
    this.socket.on("message", (data: Buffer, isBinary: boolean) => {
      const at = Date.now();
      if (isBinary === false || typeof data === "string") {
        this.statuses.push(JSON.parse(data.toString()) as LiveStatus);
        return;
      }
      this.bytes += data.length;
      this.onBinary?.(data);
      const samples = fragmentSamples(data);
      if (samples === 0)
        this.inits += 1; // ftyp+moov: (re)started
      else {
        this.model.fragment(at, samples);
        this.firstFragment();
      }
    });
  }

  restart(): void {
    this.model = new PlaybackModel(this.fps);
    this.inits = 0;
    this.bytes = 0;
  }

  close(): void {
    this.socket.close();
  }
}

export interface DecodedFrame {
  counter: number;
  /** Date.now() in the page's requestVideoFrameCallback for this frame. */
  at: number;
}

/**
 * Samples every frame the page's <video> presents for `seconds`: requestVideoFrameCallback, the top rows drawn to a
 * canvas, and the counter row sent back to be read here with the fake camera's own reader. The page code is a
 * string so the bundler's helpers do not leak into it.
 */
export async function sampleDecodedFrames(page: Page, selector: string, seconds: number): Promise<DecodedFrame[]> {
  const width = await page.locator(selector).evaluate((video: HTMLVideoElement) => video.videoWidth);
  const { h } = counterBlock(width);
  const row = Math.floor(h / 2);
  const rows = (await page.evaluate(`(async () => {
    const video = document.querySelector(${JSON.stringify(selector)});
    const canvas = document.createElement("canvas");
    canvas.width = ${width};
    canvas.height = ${row + 1};
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    const out = [];
    const until = Date.now() + ${seconds * 1000};
    await new Promise((resolve) => {
      const onFrame = () => {
        const at = Date.now();
        ctx.drawImage(video, 0, 0, ${width}, ${row + 1}, 0, 0, ${width}, ${row + 1});
        const line = ctx.getImageData(0, ${row}, ${width}, 1).data;
        let text = "";
        for (let i = 0; i < line.length; i += 4096) text += String.fromCharCode(...line.subarray(i, i + 4096));
        out.push([at, btoa(text)]);
        if (at < until) video.requestVideoFrameCallback(onFrame);
        else resolve();
      };
      video.requestVideoFrameCallback(onFrame);
      setTimeout(resolve, ${(seconds + 10) * 1000}); // a player that stopped presenting frames ends the sampling too
    });
    return out;
  })()`)) as Array<[number, string]>;
  // readCounter reads row `row` of a picture `width` wide: give it the sampled line at that row.
  const picture = Buffer.alloc((row + 1) * width * 4);
  return rows.map(([at, base64]) => {
    Buffer.from(base64, "base64").copy(picture, row * width * 4);
    return { counter: readCounter(picture, width), at };
  });
}
