// The roster keeps IP cameras' statuses current while the studio is open: it rereads the list every
// IP_STATUS_REFRESH_MS while the user has IP cameras (and only then), so a card that is not shown live still
// follows the camera going offline and coming back.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Camera } from "../../schemas/cameras";
import { CameraRoster, IP_STATUS_REFRESH_MS, PTZ_CHECK_REFRESH_MS } from "./cameras";

/** Ids as the server makes them (answers are checked against the catalogue's schema, as in development). */
const ID = {
  a: "00000000-0000-4000-8000-00000000000a",
  b: "00000000-0000-4000-8000-00000000000b",
  ip: "00000000-0000-4000-8000-0000000000c1",
  w: "00000000-0000-4000-8000-0000000000d1",
};
const camera = (key: keyof typeof ID, over: Partial<Camera> = {}): Camera => ({
  id: ID[key],
  name: key,
  model: "IP Camera",
  status: "online",
  statusReason: null,
  source: "ip",
  ip: { host: "127.0.0.9", path: "/1", streamState: "streaming", codec: "h264", transcoded: false, hasSubStream: true, ptzProtocol: null, ptzChecking: false },
  deviceId: null,
  deviceLabel: null,
  thumbnailUrl: null,
  imageUrl: null,
  videoWidth: null,
  videoHeight: null,
  frameRate: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const webcam = (key: keyof typeof ID) => camera(key, { source: "device", ip: null, model: "Webcam", deviceId: "dev" });

let listed: Camera[] = [];
let lists = 0;
let added: Camera;

beforeEach(() => {
  vi.useFakeTimers();
  lists = 0;
  const reply = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    if (url === "/api/cameras" && init.method === "GET") {
      lists++;
      return reply(listed);
    }
    if (url === "/api/cameras/ip" && init.method === "POST") return reply(added, 201);
    return reply({ title: "Not Found", status: 404 }, 404);
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A loaded roster with nothing selected (selecting would open sources this test does not need). */
async function loaded(cameras: Camera[]) {
  listed = cameras;
  const roster = new CameraRoster({ toast: vi.fn(), alert: vi.fn() });
  roster.store.set({ selectedCameraId: "none" });
  await roster.load();
  return roster;
}
const statusOf = (roster: CameraRoster, key: keyof typeof ID) => roster.store.get().cameras.find((c) => c.id === ID[key]);

describe("IP camera statuses in the roster", () => {
  it("rereads them every interval while the studio is open, changing only the statuses", async () => {
    const roster = await loaded([camera("a"), camera("b", { status: "offline", statusReason: "unreachable" })]);
    expect(lists).toBe(1);
    listed = [camera("a", { status: "offline", statusReason: "stream ended", name: "renamed elsewhere" }), camera("b")];
    await vi.advanceTimersByTimeAsync(IP_STATUS_REFRESH_MS);
    expect(lists).toBe(2);
    expect(statusOf(roster, "a")).toMatchObject({ name: "a", status: "offline", statusReason: "stream ended" });
    expect(statusOf(roster, "b")).toMatchObject({ status: "online", statusReason: null });

    roster.dispose();
    await vi.advanceTimersByTimeAsync(IP_STATUS_REFRESH_MS * 3);
    expect(lists).toBe(2);
  });

  it("does not poll for a user without IP cameras, and starts once one is added", async () => {
    const roster = await loaded([webcam("w")]);
    await vi.advanceTimersByTimeAsync(IP_STATUS_REFRESH_MS * 3);
    expect(lists).toBe(1);

    added = camera("ip", { status: "connecting" });
    await roster.addIpCamera({ name: "ip", streamUrl: "rtsp://127.0.0.9/1" });
    listed = [webcam("w"), camera("ip", { status: "offline", statusReason: "authentication failed" })];
    await vi.advanceTimersByTimeAsync(IP_STATUS_REFRESH_MS);
    expect(statusOf(roster, "ip")).toMatchObject({ status: "offline", statusReason: "authentication failed" });
    roster.dispose();
  });

  it("rereads the list often while a camera says “checking PTZ…”, and takes its PTZ from the server once found", async () => {
    const checking = camera("ip", { status: "connecting", ip: { ...camera("ip").ip!, ptzChecking: true } });
    const roster = await loaded([checking]);
    listed = [checking];
    await vi.advanceTimersByTimeAsync(PTZ_CHECK_REFRESH_MS);
    expect(lists).toBe(2);
    listed = [camera("ip", { ip: { ...camera("ip").ip!, ptzProtocol: "onvif" } })];
    await vi.advanceTimersByTimeAsync(PTZ_CHECK_REFRESH_MS);
    expect(lists).toBe(3);
    expect(statusOf(roster, "ip")?.ip).toMatchObject({ ptzChecking: false, ptzProtocol: "onvif" });
    // The check ended: back to the slow round.
    await vi.advanceTimersByTimeAsync(PTZ_CHECK_REFRESH_MS * 3);
    expect(lists).toBe(3);
    roster.dispose();
  });
});
