// The watch controller against an in-memory server: each IP camera's watch loads with the roster and is reread while
// the page shows (not with no IP camera, not while hidden); a save shows at once, a read begun before it cannot undo
// it, and a refusal shows under its field (labels.0 as labels) or as a toast.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api/errors";
import { DEFAULT_FOLLOW, type Watch, type WatchInput } from "../../schemas/watch";
import type { Notifier } from "../notifier";
import { WATCH_REFRESH_MS, WatchController, type WatchApi } from "./watch-controller";

const problem = (status: number, body: object) => new ApiError(status, JSON.stringify(body), "");
const OFF: Watch = {
  enabled: false,
  labels: ["person"],
  fps: 5,
  width: 640,
  follow: { ...DEFAULT_FOLLOW, pausedAt: null },
  status: "off",
  stats: null,
  statsAt: null,
  lastEventAt: null,
};
const ON: WatchInput = { enabled: true, labels: ["person", "car"], fps: 8, width: 480 };

function harness(initialIds: string[]) {
  const server = new Map<string, Watch>();
  const reads: string[] = [];
  let refuse: ApiError | null = null;
  let visible = true;
  let ids = initialIds;
  let hold: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const toasts: string[] = [];
  const api: WatchApi = {
    watch: async (id: string) => {
      reads.push(id);
      const answer = { ...(server.get(id) ?? OFF) };
      if (hold === null) return answer;
      return new Promise<Watch>((resolve) => (hold = () => resolve(answer)));
    },
    setWatch: async (id: string, input: WatchInput) => {
      if (refuse) throw refuse;
      const watch: Watch = {
        ...input,
        follow: { ...DEFAULT_FOLLOW, ...input.follow, pausedAt: null },
        status: input.enabled ? "waiting" : "off",
        stats: null,
        statsAt: null,
        lastEventAt: null,
      };
      server.set(id, watch);
      return watch;
    },
  } as WatchApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}: ${t.description}`), alert: () => undefined };
  const controller = new WatchController({
    api,
    notify,
    now: () => Date.now(),
    visible: () => visible,
    ipCameraIds: () => ids,
    onCamerasChanged: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
  });
  return {
    controller,
    server,
    reads,
    toasts,
    refuseWith: (e: ApiError | null) => (refuse = e),
    setVisible: (v: boolean) => (visible = v),
    setCameras: (next: string[]) => ((ids = next), listeners.forEach((l) => l())),
    holdReads: () => (hold = () => undefined),
    releaseRead: () => {
      const release = hold;
      hold = null;
      release?.();
    },
  };
}

describe("WatchController", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("reads each IP camera's watch at once and every few seconds while the page shows", async () => {
    const h = harness(["a", "b"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(Object.keys(h.controller.store.get().watches).sort()).toEqual(["a", "b"]);
    expect(h.reads).toEqual(["a", "b"]);
    h.server.set("a", { ...OFF, enabled: true, status: "running" });
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS);
    expect(h.reads).toEqual(["a", "b", "a", "b"]);
    expect(h.controller.store.get().watches.a?.status).toBe("running");
    h.setVisible(false);
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS * 2);
    expect(h.reads).toHaveLength(4);
    h.setVisible(true);
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS);
    expect(h.reads).toHaveLength(6);
    h.controller.dispose();
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS * 2);
    expect(h.reads).toHaveLength(6);
  });

  it("does not poll with no IP camera; starts with the first one added and stops when the last leaves", async () => {
    const h = harness([]);
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS * 3);
    expect(h.reads).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    h.setCameras(["a"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.reads).toEqual(["a"]);
    // A roster change that keeps the same cameras (a new thumbnail) reads nothing more.
    h.setCameras(["a"]);
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS);
    expect(h.reads).toEqual(["a", "a"]);
    h.setCameras([]);
    expect(h.controller.store.get().watches).toEqual({});
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS * 3);
    expect(h.reads).toEqual(["a", "a"]);
  });

  it("shows a saved watch at once, and a read begun before the save does not bring the old one back", async () => {
    const h = harness(["a"]);
    await vi.advanceTimersByTimeAsync(0);
    h.holdReads();
    await vi.advanceTimersByTimeAsync(WATCH_REFRESH_MS);
    expect(await h.controller.save("a", ON)).toBe(true);
    expect(h.controller.store.get().watches.a).toMatchObject({ ...ON, status: "waiting" });
    h.releaseRead();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.controller.store.get().watches.a?.status).toBe("waiting");
    expect(h.controller.store.get()).toMatchObject({ saving: null, fieldErrors: {} });
  });

  it("keeps a refusal's messages by field (labels.0 as labels) for the dialog; anything else is a toast", async () => {
    const h = harness(["a"]);
    await vi.advanceTimersByTimeAsync(0);
    h.refuseWith(problem(400, { detail: "Invalid", errors: { fps: ["At least 1 frame per second"], "labels.0": ["Too long"] } }));
    expect(await h.controller.save("a", ON)).toBe(false);
    expect(h.controller.store.get()).toMatchObject({ fieldErrors: { fps: "At least 1 frame per second", labels: "Too long" }, saving: null });
    expect(h.controller.store.get().watches.a?.status).toBe("off");
    expect(h.toasts).toEqual([]);
    h.refuseWith(problem(503, { detail: "The database is busy" }));
    expect(await h.controller.save("a", ON)).toBe(false);
    expect(h.controller.store.get().fieldErrors).toEqual({});
    expect(h.toasts).toEqual(["Error: The database is busy"]);
    h.controller.clearErrors();
    h.refuseWith(null);
    expect(await h.controller.save("a", ON)).toBe(true);
  });
});
