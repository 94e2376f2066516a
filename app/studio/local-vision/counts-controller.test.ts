// The counts controller against an in-memory server: stored rows plus this tab's events not yet stored, never counted
// twice once a batch is stored; lines and zones created, renamed or deleted show at once; a reset forgets this tab's.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CountRow, Line, VisionEvent, Zone } from "../../schemas/local-vision";
import { createStore } from "../store";
import { CountsController, RELOAD_GAP_MS } from "./counts-controller";
import type { ReportedListener } from "./event-reporter";
import type { CameraRegions } from "./regions-controller";

const CAM = "00000000-0000-4000-8000-000000000901";
const DOOR = "00000000-0000-4000-8000-000000000001";
const NOW = Date.parse("2026-11-28T15:30:20Z");
const line = (id: string, name: string) => ({ id, name }) as Line;

const crossing = (direction: "in" | "out", at = NOW - 1000): VisionEvent => ({
  type: "line.crossed",
  lineId: DOOR,
  direction,
  trackId: 1,
  label: "person",
  at,
  box: { x: 0, y: 0, w: 0.1, h: 0.1 },
});

function harness() {
  const server: CountRow[] = [{ minute: new Date(NOW - 10 * 60_000).toISOString(), lineId: DOOR, zoneId: null, label: "person", kind: "in", count: 54 }];
  const answers: Array<(rows: CountRow[]) => void> = [];
  let listener: ReportedListener = () => undefined;
  const cameras = { store: createStore({ selectedCameraId: CAM as string | null }) };
  const regions = { store: createStore<{ byCamera: Record<string, CameraRegions> }>({ byCamera: { [CAM]: { lines: [line(DOOR, "Door")], zones: [] as Zone[] } } }) };
  const counts = new CountsController({
    cameras,
    regions,
    reporter: { onChange: (l) => ((listener = l), () => undefined) },
    // Each load answers when the test says, with the server's rows as they are then.
    api: { counts: () => new Promise((resolve) => answers.push(() => resolve({ rows: server.map((r) => ({ ...r })) }))) },
    now: () => Date.now(),
    visible: () => true,
  });
  const answer = async () => {
    answers.shift()!(server);
    await vi.advanceTimersByTimeAsync(0);
  };
  const today = () => counts.store.get().summary?.lines.find((l) => l.id === DOOR)?.counts.today;
  const report = (change: "queued" | "stored" | "dropped", events: VisionEvent[]) => listener({ cameraId: CAM, change, events });
  /** What the server does when it stores a batch: its events join the rows. */
  const store = (events: VisionEvent[]) =>
    events.forEach(
      (e) =>
        e.type === "line.crossed" &&
        server.push({ minute: new Date(Math.floor(e.at / 60_000) * 60_000).toISOString(), lineId: DOOR, zoneId: null, label: "person", kind: e.direction, count: 1 }),
    );
  return { counts, regions, answers, answer, today, report, store };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("CountsController", () => {
  it("adds this tab's events to the stored totals at once, and counts each once after its batch is stored", async () => {
    const h = harness();
    await h.answer();
    expect(h.today()).toEqual({ in: 54, out: 0 });
    const batch = [crossing("in"), crossing("out")];
    h.report("queued", batch);
    expect(h.today()).toEqual({ in: 55, out: 1 });
    expect(h.counts.store.get().session[DOOR]).toEqual({ in: 1, out: 1 });

    // A load that started before the batch was stored and answers after: the server may or may not have it; this tab
    // still counts it itself until a load that started after the store.
    h.store(batch);
    void h.counts.load();
    h.report("stored", batch);
    await h.answer();
    expect(h.today()).toEqual({ in: 55, out: 1 });
    // The reload the stored batch asked for (after the gap) reads it from the server, and this tab stops adding it.
    await vi.advanceTimersByTimeAsync(RELOAD_GAP_MS);
    expect(h.answers).toHaveLength(1);
    await h.answer();
    expect(h.today()).toEqual({ in: 55, out: 1 });
    expect(h.counts.store.get().session[DOOR]).toEqual({ in: 1, out: 1 });
  });

  it("drops events the server refused, and a reset forgets this tab's figures", async () => {
    const h = harness();
    await h.answer();
    const refused = [crossing("in")];
    h.report("queued", refused);
    h.report("dropped", refused);
    expect(h.today()).toEqual({ in: 54, out: 0 });
    h.report("queued", [crossing("out")]);
    h.counts.forget(DOOR);
    expect(h.today()).toEqual({ in: 54, out: 0 });
    expect(h.counts.store.get().session[DOOR]).toBeUndefined();
  });

  it("shows a line as soon as it is drawn, renamed or deleted, without waiting for a reload", async () => {
    const h = harness();
    await h.answer();
    const second = "00000000-0000-4000-8000-000000000002";
    h.regions.store.set({ byCamera: { [CAM]: { lines: [line(DOOR, "Front door"), line(second, "Line 2")], zones: [] } } });
    expect(h.counts.store.get().summary!.lines.map((l) => [l.name, l.counts.today])).toEqual([
      ["Front door", { in: 54, out: 0 }],
      ["Line 2", { in: 0, out: 0 }],
    ]);
    h.regions.store.set({ byCamera: { [CAM]: { lines: [line(second, "Line 2")], zones: [] } } });
    expect(h.counts.store.get().summary!.lines.map((l) => l.name)).toEqual(["Line 2"]);
    expect(h.answers).toHaveLength(0);
  });

  it("counts today from local midnight, like the Counts panel", async () => {
    const h = harness();
    await h.answer();
    const midnight = new Date(NOW);
    midnight.setHours(0, 0, 0, 0);
    h.report("queued", [crossing("out", midnight.getTime() - 60_000), crossing("out", midnight.getTime() + 60_000)]);
    expect(h.today()).toEqual({ in: 54, out: 1 });
    expect(h.counts.store.get().summary!.lines[0]!.counts.day.out).toBe(2);
  });
});
