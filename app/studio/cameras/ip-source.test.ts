// An IP camera in the roster: selecting it gives the preview a live-view media whose socket statuses become the
// source's (online → live, offline with the server's reason), "Try again" after offline starts a new view, and
// a webcam's stream is preview media through the same attach path.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Camera } from "../../schemas/cameras";
import { CameraRoster } from "./cameras";
import { liveSourcePatch, streamMedia } from "./ip-source";

class FakeSocket {
  static all: FakeSocket[] = [];
  binaryType = "";
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: unknown = null;
  onopen: unknown = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
  status(status: string, reason: string | null = null) {
    this.onmessage?.({ data: JSON.stringify({ type: "status", status, reason, codec: "h264", mime: null, width: 640, height: 360, transcoded: false }) });
  }
}

const ipCamera = { id: "cam-ip", name: "Stage", model: "", source: "ip", ip: { host: "127.0.0.9", ptzProtocol: null } } as unknown as Camera;
const video = () => ({ src: "", removeAttribute() {}, load() {}, play: () => Promise.resolve() }) as unknown as HTMLVideoElement;

describe("an IP camera as a roster source", () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("MediaSource", class {});
    vi.stubGlobal("window", { location: { protocol: "http:", host: "studio.test" } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("follows the live socket's status while the preview shows it, and starts afresh on Try again", async () => {
    const roster = new CameraRoster({ toast: vi.fn(), alert: vi.fn() });
    roster.store.set({ cameras: [ipCamera], camerasLoading: false });
    await roster.selectCamera(ipCamera.id);
    const source = () => roster.store.get().sources[ipCamera.id]!;
    expect(source()).toMatchObject({ status: "connecting", stream: null });
    const media = source().media!;
    // No socket until the preview attaches the media.
    expect(FakeSocket.all).toHaveLength(0);
    const detach = media.attach(video());
    expect(FakeSocket.all.map((s) => s.url)).toEqual(["ws://studio.test/api/cameras/cam-ip/live"]);
    FakeSocket.all[0]!.status("online");
    expect(source()).toMatchObject({ status: "live", error: null });
    expect(roster.selectedIsLive).toBe(true);
    FakeSocket.all[0]!.status("offline", "authentication failed");
    expect(source()).toMatchObject({ status: "offline", error: "authentication failed", live: { reason: "authentication failed" } });
    // The camera's row says it too, so its card keeps it once another camera is shown.
    expect(roster.store.get().cameras[0]).toMatchObject({ status: "offline", statusReason: "authentication failed" });
    // Selecting it again (the preview's Try again) replaces the media: the preview attaches a new socket.
    await roster.selectCamera(ipCamera.id);
    expect(source().media).not.toBe(media);
    // A late status from the replaced view (before the preview lets go of it) changes nothing.
    FakeSocket.all[0]!.status("online");
    expect(source().status).toBe("connecting");
    detach();
  });

  it("maps live states onto source states", () => {
    const base = { reason: null, codec: null, mime: null, width: null, height: null, transcoded: false };
    expect(liveSourcePatch({ ...base, state: "online" }).status).toBe("live");
    expect(liveSourcePatch({ ...base, state: "connecting" }).status).toBe("connecting");
    expect(liveSourcePatch({ ...base, state: "offline", reason: "unreachable" })).toMatchObject({ status: "offline", error: "unreachable" });
  });

  it("plays a webcam's stream through the same attach path, and detaching leaves a newer stream alone", () => {
    const stream = {} as MediaStream;
    const element = { srcObject: null as unknown, play: () => Promise.resolve() } as unknown as HTMLVideoElement;
    const detach = streamMedia(stream).attach(element);
    expect(element.srcObject).toBe(stream);
    const newer = {} as MediaStream;
    element.srcObject = newer;
    detach();
    expect(element.srcObject).toBe(newer);
  });
});
