// The monitors controller against an in-memory server: the list loads and is reread while the page shows, pause and
// delete change it, a new monitor joins it, and a refusal shows under its field (settings.* paths too) or as a toast.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { Monitor } from "../../schemas/monitors";
import type { Notifier } from "../notifier";
import { MONITORS_REFRESH_MS, MonitorsController, type MonitorsApi, type NewMonitor } from "./monitors-controller";

const problem = (status: number, body: object) => new ApiError(status, JSON.stringify(body), "");
const monitor = (id: string, state: Monitor["state"] = "running") => ({ id, name: `Monitor ${id}`, state }) as Monitor;
const NEW: NewMonitor = { kind: "auto_capture", cameraId: "cam", settings: { query: "person", intervalSeconds: 5, minGapSeconds: 60 } };

function harness() {
  const server = [monitor("m1"), monitor("m2")];
  let lists = 0;
  let refuse: ApiError | null = null;
  let visible = true;
  const toasts: string[] = [];
  const api = {
    list: async () => (lists++, server.map((m) => ({ ...m }))),
    pause: async (id: string) => {
      if (refuse) throw refuse;
      return { ...server.find((m) => m.id === id)!, state: "paused" };
    },
    resume: async (id: string) => ({ ...server.find((m) => m.id === id)!, state: "running" }),
    remove: async (id: string) =>
      void server.splice(
        server.findIndex((m) => m.id === id),
        1,
      ),
    create: async () => {
      if (refuse) throw refuse;
      const created = monitor("m3");
      server.push(created);
      return created;
    },
  } as unknown as MonitorsApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}: ${t.description}`), alert: () => undefined };
  const controller = new MonitorsController({ api, notify, now: () => Date.now(), visible: () => visible, regions: async () => ({ lines: [], zones: [] }) });
  return { controller, toasts, lists: () => lists, refuseWith: (e: ApiError | null) => (refuse = e), hide: () => (visible = false) };
}

describe("MonitorsController", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("loads the list while watched, rereads it while the page shows, and stops when unwatched", async () => {
    const { controller, lists, hide } = harness();
    const stop = controller.watch();
    expect(controller.store.get().monitors).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.store.get().monitors?.map((m) => m.id)).toEqual(["m1", "m2"]);
    await vi.advanceTimersByTimeAsync(MONITORS_REFRESH_MS);
    expect(lists()).toBe(2);
    hide();
    await vi.advanceTimersByTimeAsync(MONITORS_REFRESH_MS);
    expect(lists()).toBe(2);
    stop();
    await vi.advanceTimersByTimeAsync(MONITORS_REFRESH_MS * 3);
    expect(lists()).toBe(2);
  });

  it("pauses, deletes and starts monitors in the list shown", async () => {
    const { controller, toasts } = harness();
    await controller.refresh();
    await controller.act(monitor("m1"), "pause");
    await controller.act(monitor("m2"), "remove");
    await controller.create(NEW);
    expect(controller.store.get().monitors?.map((m) => `${m.id} ${m.state}`)).toEqual(["m1 paused", "m3 running"]);
    expect(toasts).toEqual(["Monitor started: Monitor m3"]);
  });

  it("shows a refused monitor's errors under their fields (settings.query as query), anything else as a toast", async () => {
    const { controller, toasts, refuseWith } = harness();
    await controller.refresh();
    refuseWith(problem(422, { detail: "Invalid", errors: { "settings.query": ["Say what to look for"], cameraId: ["Not an IP camera"] } }));
    await controller.create(NEW);
    expect(controller.store.get()).toMatchObject({ formErrors: { query: "Say what to look for", cameraId: "Not an IP camera" }, saving: false });
    expect(toasts).toEqual([]);
    refuseWith(problem(409, { detail: "You have 10 monitors, the most there can be" }));
    await controller.create(NEW);
    await controller.act(monitor("m1"), "pause");
    expect(toasts).toEqual(["Error: You have 10 monitors, the most there can be", "Error: You have 10 monitors, the most there can be"]);
    expect(controller.store.get().monitors?.map((m) => m.state)).toEqual(["running", "running"]);
  });
});
