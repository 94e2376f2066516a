// People counting through its narrow host: a started session turns AI on through the modes, each count lands
// in the state and the library, a failed start tells the modes (which turn AI off) and says so, Stop saves.
// A session started while "Count People Locally" is on samples the on-device count at the count interval (fake
// clock) into the session's snapshots, with no count call. The server is a stubbed fetch; the rest of the studio
// is a small fake host.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
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
  source: "moondream",
};
const SNAPSHOT = {
  id: "44444444-4444-4444-8444-444444444444",
  sessionId: SESSION.id,
  capturedAt: "2026-01-01T00:00:05.000Z",
  aiCount: 0,
  aiCountMin: null,
  aiCountMax: null,
  correctedCount: null,
  correctedCountMin: null,
  correctedCountMax: null,
  imageUrl: "/i",
  thumbnailUrl: "/t",
};

function harness({ failStart = false, countingPeople = false, people = null as number | null, intervalSeconds = 5 } = {}) {
  const calls: string[] = [];
  const bodies: Array<Record<string, unknown>> = [];
  let snapshots = 0;
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    calls.push(url);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    bodies.push(body);
    const reply = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/people-count/sessions") return failStart ? reply({ title: "Broken", status: 500, detail: "down" }, 500) : reply({ ...SESSION, source: body.source }, 201);
    if (url === `/api/people-count/sessions/${SESSION.id}/snapshots`) {
      snapshots += 1;
      return reply({ snapshot: { ...SNAPSHOT, aiCount: body.count }, session: { ...SESSION, source: "local", snapshotCount: snapshots } }, 201);
    }
    if (url === "/api/people-count/count") return reply({ count: 4, countMin: null, countMax: null, snapshot: null, session: { ...SESSION, snapshotCount: 1 } });
    if (url === `/api/people-count/sessions/${SESSION.id}/finish`) return reply({ ...SESSION, isActive: false, finishedAt: "2026-01-01T00:01:00.000Z" });
    return reply({}, 404);
  });
  const toasts: string[] = [];
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}${t.description ? `: ${t.description}` : ""}`), alert: () => {} };
  const modes = { state: () => ({ captions: false, story: false, counting: false }), switched: vi.fn(), countingFailed: vi.fn() };
  const sessions: unknown[] = [];
  const localVision = { store: createStore({ countingPeople, people }) };
  const account = { noteCall: vi.fn() };
  const host: CountingHost = {
    notify,
    settings: { get: () => ({ countIntervalSeconds: intervalSeconds, countUseRange: false }) },
    failures: { report: vi.fn(), succeeded: vi.fn() },
    account,
    grabFrame: async () => ({ dataUrl: "data:image/jpeg;base64,AAAA", width: 4, height: 3 }),
    cameras: { selectedCamera: null },
    library: { upsertSession: (s) => void sessions.push(s) },
    modes,
    localVision,
  };
  const controller = new CountingController(host, { isHidden: () => false, onChange: () => () => {} });
  const snapshotPosts = () => bodies.filter((_, i) => calls[i]!.endsWith("/snapshots"));
  return { controller, calls, bodies, snapshotPosts, toasts, modes, sessions, localVision, account };
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

  it("a Moondream session (local count off) is created with its source and counts with calls", async () => {
    const h = harness();
    await h.controller.start();
    expect(h.bodies[0]).toMatchObject({ source: "moondream" });
    expect(h.controller.store.get().source).toBe("moondream");
    await vi.waitFor(() => expect(h.account.noteCall).toHaveBeenCalled());
    expect(h.snapshotPosts()).toEqual([]);
    await h.controller.stop();
  });
});

describe("CountingController, local sessions", () => {
  /** Lets the stubbed fetches and the answers' promise chains run (no timer moves). */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("samples the on-device count with its frame at the count interval, and makes no count call", async () => {
    const h = harness({ countingPeople: true, people: 3, intervalSeconds: 4 });
    await h.controller.start();
    await settle();
    expect(h.bodies[0]).toMatchObject({ source: "local" });
    expect(h.controller.store.get().source).toBe("local");
    // AI analysis (Moondream's captions) stays as it was: a local session turns nothing on that calls.
    expect(h.modes.switched).not.toHaveBeenCalled();
    expect(h.snapshotPosts()).toEqual([{ imageData: "data:image/jpeg;base64,AAAA", count: 3 }]);
    expect(h.controller.store.get()).toMatchObject({ result: { count: 3, min: null, max: null }, session: { source: "local", snapshotCount: 1 } });
    expect(h.sessions.at(-1)).toMatchObject({ snapshotCount: 1 });

    // The count moves between samples; only the value at each interval is stored.
    h.localVision.store.set({ people: 7 });
    h.localVision.store.set({ people: 5 });
    await vi.advanceTimersByTimeAsync(3_999);
    expect(h.snapshotPosts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(h.snapshotPosts().map((b) => b.count)).toEqual([3, 5]);
    await vi.advanceTimersByTimeAsync(4_000);
    await settle();
    expect(h.snapshotPosts().map((b) => b.count)).toEqual([3, 5, 5]);
    expect(h.controller.store.get().session).toMatchObject({ snapshotCount: 3 });

    expect(h.calls.filter((url) => url === "/api/people-count/count")).toEqual([]);
    expect(h.account.noteCall).not.toHaveBeenCalled();
    await h.controller.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.snapshotPosts()).toHaveLength(3);
  });

  it("waits for the detector's first count rather than storing a made-up one", async () => {
    const h = harness({ countingPeople: true, people: null });
    await h.controller.start();
    await settle();
    expect(h.snapshotPosts()).toEqual([]);
    h.localVision.store.set({ people: 2 });
    await settle();
    expect(h.snapshotPosts().map((b) => b.count)).toEqual([2]);
    await h.controller.stop();
  });

  it("goes on when AI analysis is switched off (a Moondream session ends)", async () => {
    const h = harness({ countingPeople: true, people: 1 });
    await h.controller.start();
    await settle();
    await h.controller.stopWithAi({ quiet: true });
    expect(h.controller.isOn()).toBe(true);
    h.localVision.store.set({ countingPeople: false, people: null });
    await settle();
    const moondream = harness();
    await moondream.controller.start();
    await moondream.controller.stopWithAi({ quiet: true });
    expect(moondream.controller.isOn()).toBe(false);
  });

  it("switching the local count off ends the local session, saved", async () => {
    const h = harness({ countingPeople: true, people: 1 });
    await h.controller.start();
    await settle();
    h.localVision.store.set({ countingPeople: false, people: null });
    await settle();
    expect(h.controller.isOn()).toBe(false);
    expect(h.calls).toContain(`/api/people-count/sessions/${SESSION.id}/finish`);
    expect(h.toasts).toEqual(["People Counting Stopped: Saved to People Count."]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.snapshotPosts()).toHaveLength(1);
  });
});
