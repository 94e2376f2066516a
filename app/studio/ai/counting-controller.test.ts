// People counting through its narrow host: a started session turns AI on through the modes, each count lands
// in the state and the library, a failed start tells the modes (which turn AI off) and says so, Stop saves.
// The server is a stubbed fetch; the rest of the studio is a small fake host.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Notifier } from "../notifier";
import { CountingController, type CountingHost } from "./counting-controller";

// Complete answers: the typed client checks each against its schema in tests.
const SESSION = {
  id: "33333333-3333-4333-8333-333333333333",
  cameraId: null,
  cameraName: null,
  title: "Count",
  createdAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  isActive: true,
  featuredPhotoId: null,
  averageCount: null,
  minCount: null,
  maxCount: null,
  snapshotCount: 0,
};

function harness({ failStart = false } = {}) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (url: string) => {
    calls.push(url);
    const reply = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/people-count/sessions") return failStart ? reply({ title: "Broken", status: 500, detail: "down" }, 500) : reply(SESSION);
    if (url === "/api/people-count/count") return reply({ count: 4, countMin: null, countMax: null, snapshot: null, session: { ...SESSION, snapshotCount: 1 } });
    if (url === `/api/people-count/sessions/${SESSION.id}/finish`) return reply({ ...SESSION, isActive: false, finishedAt: "2026-01-01T00:01:00.000Z" });
    return reply({}, 404);
  });
  const toasts: string[] = [];
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}${t.description ? `: ${t.description}` : ""}`), alert: () => {} };
  const modes = { state: () => ({ captions: false, story: false, counting: false }), switched: vi.fn(), countingFailed: vi.fn() };
  const sessions: unknown[] = [];
  const host: CountingHost = {
    notify,
    settings: { get: () => ({ countIntervalSeconds: 5, countUseRange: false }) },
    failures: { report: vi.fn(), succeeded: vi.fn() },
    account: { noteCall: vi.fn() },
    grabFrame: async () => ({ dataUrl: "data:image/jpeg;base64,AAAA", width: 4, height: 3 }),
    cameras: { selectedCamera: null },
    library: { upsertSession: (s) => void sessions.push(s) },
    modes,
  };
  const controller = new CountingController(host, { isHidden: () => false, onChange: () => () => {} });
  return { controller, calls, toasts, modes, sessions };
}

describe("CountingController", () => {
  beforeEach(() => vi.spyOn(console, "warn").mockImplementation(() => {}));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("starts a session, turns AI on through the modes, counts, and saves the session on Stop", async () => {
    const h = harness();
    await h.controller.start();
    expect(h.modes.switched).toHaveBeenCalledWith("counting", true);
    await vi.waitFor(() => expect(h.controller.store.get().result).toEqual({ count: 4, min: null, max: null }));
    expect(h.calls.slice(0, 2)).toEqual(["/api/people-count/sessions", "/api/people-count/count"]);
    await h.controller.stop();
    expect(h.controller.isOn()).toBe(false);
    expect(h.toasts).toEqual(["People Counting Stopped: Saved to People Count."]);
    expect(h.sessions.at(-1)).toMatchObject({ id: SESSION.id, isActive: false });
    expect(h.modes.countingFailed).not.toHaveBeenCalled();
  });

  it("a failed start turns counting off, leaves AI to the modes, and shows the spec's error", async () => {
    const h = harness({ failStart: true });
    await h.controller.start();
    expect(h.controller.isOn()).toBe(false);
    expect(h.modes.countingFailed).toHaveBeenCalledTimes(1);
    expect(h.modes.switched).not.toHaveBeenCalled();
    expect(h.toasts).toEqual(["Error: Failed to start people counting session."]);
  });
});
