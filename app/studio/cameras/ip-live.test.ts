// The live player's decisions (live edge, trimming, status messages, backoff) and, with small fakes for the
// WebSocket, MediaSource and <video>, how it feeds MSE: init segment first, a new MediaSource when the
// stream restarts or changes codec, reconnects after a drop, none after 4404.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { boxType, CATCH_UP_RATE, IpLivePlayer, isInitSegment, liveEdgeDecision, liveUrl, type LiveStatus, mediaSourceClass, parseStatusMessage, reconnectDelay } from "./ip-live";

function box(type: string, size = 16): ArrayBuffer {
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(0, size);
  bytes.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  return bytes.buffer;
}

describe("liveEdgeDecision", () => {
  it("stays at normal speed while the playhead is near the buffered end", () => {
    expect(liveEdgeDecision(9.8, [{ start: 0, end: 10 }])).toEqual({ seekTo: null, removeBefore: null, playbackRate: 1 });
  });

  it("plays a little fast to close a small lag, without seeking", () => {
    expect(liveEdgeDecision(9.5, [{ start: 0, end: 10 }])).toEqual({ seekTo: null, removeBefore: null, playbackRate: CATCH_UP_RATE });
  });

  it("jumps just before the end when more than 0.6 s behind, at normal speed", () => {
    const { seekTo, playbackRate } = liveEdgeDecision(5, [{ start: 0, end: 10 }]);
    expect(seekTo).toBeCloseTo(9.9);
    expect(playbackRate).toBe(1);
  });

  it("jumps into the newest range when the playhead is in a gap or before the start (a fresh stream)", () => {
    expect(liveEdgeDecision(0, [{ start: 3.2, end: 3.3 }]).seekTo).toBeCloseTo(3.2);
    expect(
      liveEdgeDecision(5.5, [
        { start: 0, end: 5 },
        { start: 6, end: 6.5 },
      ]).seekTo,
    ).toBeCloseTo(6.4);
  });

  it("trims media more than 10 s behind the playhead, with slack so it does not remove on every append", () => {
    expect(liveEdgeDecision(14, [{ start: 0, end: 14.2 }]).removeBefore).toBeNull();
    expect(liveEdgeDecision(16, [{ start: 0, end: 16.2 }]).removeBefore).toBeCloseTo(6);
  });

  it("does nothing with nothing buffered", () => {
    expect(liveEdgeDecision(0, [])).toEqual({ seekTo: null, removeBefore: null, playbackRate: 1 });
  });
});

describe("messages", () => {
  it("tells an init segment from a fragment by the first box", () => {
    expect(boxType(box("ftyp"))).toBe("ftyp");
    expect(isInitSegment(box("ftyp"))).toBe(true);
    expect(isInitSegment(box("moof"))).toBe(false);
    expect(isInitSegment(new ArrayBuffer(3))).toBe(false);
  });

  it("reads a status message and ignores anything else", () => {
    const status = parseStatusMessage(
      JSON.stringify({ type: "status", status: "online", reason: null, codec: "hevc", mime: 'video/mp4; codecs="avc1.42c01e"', width: 640, height: 360, transcoded: true }),
    );
    expect(status).toEqual({ state: "online", reason: null, codec: "hevc", mime: 'video/mp4; codecs="avc1.42c01e"', width: 640, height: 360, transcoded: true });
    expect(parseStatusMessage('{"type":"status","status":"offline","reason":"authentication failed"}')).toMatchObject({
      state: "offline",
      reason: "authentication failed",
      mime: null,
    });
    expect(parseStatusMessage('{"type":"hello"}')).toBeNull();
    expect(parseStatusMessage('{"type":"status","status":"exploded"}')).toBeNull();
    expect(parseStatusMessage("not json")).toBeNull();
  });

  it("backs off from 0.5 s doubling to at most 10 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it("prefers ManagedMediaSource and builds a same-origin ws(s) URL", () => {
    const Managed = class {};
    const Plain = class {};
    expect(mediaSourceClass({ ManagedMediaSource: Managed, MediaSource: Plain })).toBe(Managed);
    expect(mediaSourceClass({ MediaSource: Plain })).toBe(Plain);
    expect(mediaSourceClass({})).toBeNull();
    expect(liveUrl("abc", { protocol: "https:", host: "studio.example" })).toBe("wss://studio.example/api/cameras/abc/live");
    expect(liveUrl("abc", { protocol: "http:", host: "127.0.0.1:3000" })).toBe("ws://127.0.0.1:3000/api/cameras/abc/live");
  });
});

// Small fakes: only what the player touches.
class FakeSocket {
  static all: FakeSocket[] = [];
  binaryType = "blob";
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: unknown = null;
  onopen: unknown = null;
  closed: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code: number) {
    this.closed = code;
  }
  text(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  binary(data: ArrayBuffer) {
    this.onmessage?.({ data });
  }
}

class FakeSourceBuffer extends EventTarget {
  mode = "";
  updating = false;
  appended: string[] = [];
  buffered = { length: 0, start: () => 0, end: () => 0 };
  constructor(readonly mime: string) {
    super();
  }
  appendBuffer(data: ArrayBuffer) {
    this.appended.push(boxType(data));
    this.updating = true;
  }
  finish() {
    this.updating = false;
    this.dispatchEvent(new Event("updateend"));
  }
  abort() {}
  remove() {}
}

class FakeMediaSource extends EventTarget {
  static all: FakeMediaSource[] = [];
  static isTypeSupported = (mime: string) => mime.includes("avc1");
  readyState = "closed";
  buffers: FakeSourceBuffer[] = [];
  constructor() {
    super();
    FakeMediaSource.all.push(this);
  }
  open() {
    this.readyState = "open";
    this.dispatchEvent(new Event("sourceopen"));
  }
  addSourceBuffer(mime: string) {
    const buffer = new FakeSourceBuffer(mime);
    this.buffers.push(buffer);
    return buffer;
  }
}

const fakeVideo = () =>
  ({
    src: "",
    paused: true,
    currentTime: 0,
    disableRemotePlayback: false,
    play: vi.fn(() => Promise.resolve()),
    load: vi.fn(),
    removeAttribute: vi.fn(),
  }) as unknown as HTMLVideoElement;

const H264 = 'video/mp4; codecs="avc1.42c01e"';
const status = (over: object = {}) => ({ type: "status", status: "online", reason: null, codec: "h264", mime: H264, width: 640, height: 360, transcoded: false, ...over });

describe("IpLivePlayer", () => {
  let statuses: LiveStatus[];
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    FakeMediaSource.all = [];
    statuses = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("MediaSource", FakeMediaSource);
    vi.stubGlobal("window", { location: { protocol: "http:", host: "studio.test" } });
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => `blob:${FakeMediaSource.all.length}`);
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function start() {
    const video = fakeVideo();
    const player = new IpLivePlayer("cam-1", video, (s) => statuses.push(s));
    return { player, video, socket: FakeSocket.all[0]! };
  }

  it("appends the init segment and then the fragments, in order, one at a time", () => {
    const { player, socket } = start();
    expect(socket.url).toBe("ws://studio.test/api/cameras/cam-1/live");
    socket.text(status());
    socket.binary(box("moof")); // before any init: cannot be parsed, dropped
    socket.binary(box("ftyp"));
    socket.binary(box("moof"));
    socket.binary(box("moof"));
    const source = FakeMediaSource.all[0]!;
    source.open();
    const buffer = source.buffers[0]!;
    expect(buffer.mime).toBe(H264);
    expect(buffer.mode).toBe("segments");
    expect(buffer.appended).toEqual(["ftyp"]);
    buffer.finish();
    buffer.finish();
    expect(buffer.appended).toEqual(["ftyp", "moof", "moof"]);
    expect(statuses.at(-1)).toMatchObject({ state: "online", width: 640 });
    player.dispose();
    expect(socket.closed).toBe(1000);
  });

  it("starts a new MediaSource with the new MIME when the stream restarts (new status, fresh init segment)", () => {
    const { player, socket } = start();
    socket.text(status());
    socket.binary(box("ftyp"));
    FakeMediaSource.all[0]!.open();
    FakeMediaSource.all[0]!.buffers[0]!.finish();
    socket.binary(box("moof"));
    const hevcAsH264 = 'video/mp4; codecs="avc1.640028"';
    socket.text(status({ mime: hevcAsH264, transcoded: true, codec: "hevc" }));
    socket.binary(box("ftyp"));
    expect(FakeMediaSource.all).toHaveLength(2);
    FakeMediaSource.all[1]!.open();
    expect(FakeMediaSource.all[1]!.buffers[0]!.mime).toBe(hevcAsH264);
    expect(FakeMediaSource.all[1]!.buffers[0]!.appended).toEqual(["ftyp"]);
    expect(statuses.at(-1)).toMatchObject({ transcoded: true, codec: "hevc" });
    player.dispose();
  });

  it("reports the server's offline reason, and a codec the browser cannot play as unsupported", () => {
    const { player, socket } = start();
    socket.text(status({ status: "offline", reason: "authentication failed", mime: null }));
    expect(statuses.at(-1)).toMatchObject({ state: "offline", reason: "authentication failed" });
    socket.text(status({ mime: 'video/mp4; codecs="hvc1.1.6.L93.B0"' }));
    socket.binary(box("ftyp"));
    FakeMediaSource.all[0]!.open();
    expect(statuses.at(-1)).toMatchObject({ state: "offline", reason: "unsupported codec" });
    player.dispose();
  });

  it("reconnects with backoff when the socket drops, and not after 4404", () => {
    const { player, socket } = start();
    socket.onclose?.({ code: 1006 });
    expect(statuses.at(-1)).toMatchObject({ state: "offline", reason: "connection lost" });
    vi.advanceTimersByTime(499);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.onclose?.({ code: 1006 });
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.onclose?.({ code: 4404 });
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(3);
    expect(statuses.at(-1)).toMatchObject({ state: "offline", reason: "not found" });
    player.dispose();
  });

  it("stops reconnecting once disposed", () => {
    const { player, socket } = start();
    socket.onclose?.({ code: 1006 });
    player.dispose();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
