// The event reporter: per-camera batches of at most 100 about once a second, in order; a failed batch sent again
// unchanged after a backoff (429: its Retry-After); a refused one dropped with one toast; events wait for their
// photo and description; dispose stops it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { VisionEvent, VisionHeat } from "../../schemas/local-vision";
import { EventReporter, HEAT_SEND_MS, type EventExtras, type EventReporterHost } from "./event-reporter";
import type { LineCrossedEvent } from "./events";
import { cellOf } from "./heat-grid";
import type { LocalEventsFrame, LocalEventsListener, LocalTracksListener } from "./local-vision-controller";
import { trackAt } from "./synthetic";

const LINE = "11111111-1111-4111-8111-111111111111";
const ORIGIN = 1_700_000_000_000.4;

function crossing(trackId: number, at = 1000 + trackId): LineCrossedEvent {
  return { type: "line.crossed", lineId: LINE, direction: "in", trackId, label: "person", at, box: { x_min: 0.125, y_min: 0.25, x_max: 0.5, y_max: 0.75 } };
}

function frame(cameraId: string, events: LineCrossedEvent[]): LocalEventsFrame {
  return { cameraId, at: events[0]?.at ?? 0, events, tracks: [] };
}

interface Post {
  cameraId: string;
  batchId: string;
  events: VisionEvent[];
  heat?: VisionHeat;
  keepalive: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

function harness(actions?: EventReporterHost["actions"]) {
  let listener: LocalEventsListener = () => {};
  let tracksListener: LocalTracksListener = () => {};
  const posts: Post[] = [];
  const toasts: unknown[] = [];
  let unsubscribed = false;
  const reporter = new EventReporter({
    onEvents: (l) => {
      listener = l;
      return () => (unsubscribed = true);
    },
    onTracks: (l) => {
      tracksListener = l;
      return () => {};
    },
    post: (cameraId, { batchId, events, heat }, { keepalive }) =>
      new Promise<void>((resolve, reject) => {
        posts.push({ cameraId, batchId, events: structuredClone(events), ...(heat ? { heat: structuredClone(heat) } : {}), keepalive, resolve, reject });
      }),
    notify: { toast: (t) => toasts.push(t) },
    timeOrigin: ORIGIN,
    actions,
  });
  const ids = (post: Post | undefined) => post?.events.map((e) => e.trackId);
  return {
    reporter,
    posts,
    toasts,
    emit: (f: LocalEventsFrame) => listener(f),
    track: (f: Parameters<LocalTracksListener>[0]) => tracksListener(f),
    ids,
    unsubscribed: () => unsubscribed,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("EventReporter", () => {
  it("sends each camera's events about once a second, at most 100 a batch, in order, with Unix times", async () => {
    const h = harness();
    for (let i = 0; i < 15; i++)
      h.emit(
        frame(
          "a",
          Array.from({ length: 10 }, (_, j) => crossing(i * 10 + j)),
        ),
      );
    h.emit(frame("b", [crossing(900), crossing(901)]));
    await vi.advanceTimersByTimeAsync(999);
    expect(h.posts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.posts.map((p) => [p.cameraId, p.events.length])).toEqual([
      ["a", 100],
      ["b", 2],
    ]);
    expect(h.ids(h.posts[0])).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(h.posts[0]!.events[0]).toEqual({
      type: "line.crossed",
      lineId: LINE,
      direction: "in",
      trackId: 0,
      label: "person",
      at: Math.round(ORIGIN + 1000),
      box: { x: 0.125, y: 0.25, w: 0.375, h: 0.5 },
    });
    // One batch in flight per camera: the rest waits for the first answer.
    await vi.advanceTimersByTimeAsync(3000);
    expect(h.posts).toHaveLength(2);
    h.posts[0]!.resolve();
    h.posts[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(3);
    expect(h.ids(h.posts[2])).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
    expect(h.reporter.store.get().posted).toBe(2);
    h.posts[2]!.resolve();
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.posts).toHaveLength(3);
    expect(h.reporter.store.get()).toEqual({ posted: 3, lastCameraId: "a" });
  });

  it("sends a failed batch again, unchanged and under the same id, after a growing backoff; later events follow it, none twice", async () => {
    const h = harness();
    h.emit(frame("a", [crossing(1), crossing(2)]));
    await vi.advanceTimersByTimeAsync(1000);
    h.posts[0]!.reject(new TypeError("Failed to fetch"));
    h.emit(frame("a", [crossing(3)]));
    await vi.advanceTimersByTimeAsync(1000);
    // First retry after 1 s: the same two events under the same id (the new one waits behind them: a batch the server
    // may have stored already is never re-cut, so its id still names exactly what it stored).
    expect(h.posts).toHaveLength(2);
    expect(h.ids(h.posts[1])).toEqual([1, 2]);
    expect(h.posts[1]!.batchId).toBe(h.posts[0]!.batchId);
    expect(h.posts[0]!.batchId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    h.posts[1]!.reject(new ApiError(503, "", "Service Unavailable"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(2); // 2 s backoff now
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(3);
    expect(h.posts[2]!.batchId).toBe(h.posts[0]!.batchId);
    h.posts[2]!.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(4);
    expect(h.posts[3]!.batchId).not.toBe(h.posts[0]!.batchId);
    h.posts[3]!.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.posts).toHaveLength(4);
    expect(h.posts.flatMap((p) => h.ids(p))).toEqual([1, 2, 1, 2, 1, 2, 3]);
  });

  it("honours a 429's Retry-After", async () => {
    const h = harness();
    h.emit(frame("a", [crossing(1)]));
    await vi.advanceTimersByTimeAsync(1000);
    h.posts[0]!.reject(new ApiError(429, '{"detail":"Too many event batches"}', "Too Many Requests", 7));
    await vi.advanceTimersByTimeAsync(6000);
    expect(h.posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(2);
    expect(h.ids(h.posts[1])).toEqual([1]);
    expect(h.toasts).toHaveLength(0);
  });

  it("drops a batch the server refuses (4xx), with one toast however many are refused, and goes on", async () => {
    const h = harness();
    h.emit(frame("a", [crossing(1)]));
    await vi.advanceTimersByTimeAsync(1000);
    h.posts[0]!.reject(new ApiError(400, '{"detail":"Some events are too old or in the future"}', "Bad Request"));
    h.emit(frame("a", [crossing(2)]));
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.ids(h.posts[1])).toEqual([2]);
    h.posts[1]!.reject(new ApiError(404, '{"detail":"Camera not found"}', "Not Found"));
    h.emit(frame("a", [crossing(3)]));
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.ids(h.posts[2])).toEqual([3]);
    expect(h.toasts).toEqual([expect.objectContaining({ title: "Local vision events were not saved", description: "Some events are too old or in the future" })]);
  });

  it("holds an event back until its photo and description are made, keeping the order behind it", async () => {
    let finish: (extras: EventExtras) => void = () => {};
    const h = harness((f) => f.events.map((e) => (e.trackId === 1 ? new Promise<EventExtras>((resolve) => (finish = resolve)) : null)));
    h.emit(frame("a", [crossing(1), crossing(2)]));
    h.emit(frame("a", [crossing(3)]));
    await vi.advanceTimersByTimeAsync(3000);
    expect(h.posts).toHaveLength(0);
    finish({ photoId: "22222222-2222-4222-8222-222222222222", description: "A man in a blue coat." });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.ids(h.posts[0])).toEqual([1, 2, 3]);
    expect(h.posts[0]!.events[0]).toMatchObject({ photoId: "22222222-2222-4222-8222-222222222222", description: "A man in a blue coat." });
    expect(h.posts[0]!.events[1]).not.toHaveProperty("photoId");
  });

  it("sends an event without extras whose actions failed or never finish", async () => {
    const h = harness((f) => f.events.map((e) => (e.trackId === 1 ? Promise.reject(new Error("no picture")) : new Promise<EventExtras>(() => {}))));
    h.emit(frame("a", [crossing(1), crossing(2)]));
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.ids(h.posts[0])).toEqual([1]);
    h.posts[0]!.resolve();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.ids(h.posts[1])).toEqual([2]);
    expect(h.posts[1]!.events[0]).not.toHaveProperty("description");
  });

  it("stops on dispose: unsubscribes, sends what is ready once (keepalive), and nothing after", async () => {
    const h = harness();
    h.emit(frame("a", [crossing(1)]));
    h.reporter.dispose();
    expect(h.unsubscribed()).toBe(true);
    expect(h.posts.map((p) => [p.cameraId, h.ids(p), p.keepalive])).toEqual([["a", [1], true]]);
    h.posts[0]!.reject(new TypeError("Failed to fetch"));
    h.emit(frame("a", [crossing(2)]));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.posts).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("EventReporter's heat grid", () => {
  const HOUR = Math.floor(ORIGIN / 3_600_000) * 3_600_000;
  const feet = { x: 0.3, y: 0.6 };
  const cell = cellOf(feet.x, feet.y);
  /** One person standing at `feet` on camera `a`, 10 frames a second from `from` to `to` (performance.now() ms). */
  const stand = (h: ReturnType<typeof harness>, from: number, to: number) => {
    for (let at = from; at <= to; at += 100) h.track({ cameraId: "a", at, tracks: [trackAt(1, feet)] });
  };
  const nonZero = (values: readonly number[] | undefined) => Object.fromEntries((values ?? []).flatMap((v, i) => (v !== 0 ? [[i, v]] : [])));

  it("sends the grid about once a minute, alone when no event waits and with the events when some do", async () => {
    const h = harness();
    stand(h, 0, HEAT_SEND_MS - 100);
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.posts).toHaveLength(0); // not a minute yet
    stand(h, HEAT_SEND_MS, HEAT_SEND_MS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(1);
    expect(h.posts[0]!.events).toEqual([]);
    expect(h.posts[0]!.heat).toMatchObject({ hour: HOUR, cols: 32, rows: 18 });
    expect(nonZero(h.posts[0]!.heat!.walk)).toEqual({ [cell]: 1 });
    expect(nonZero(h.posts[0]!.heat!.stay)).toEqual({ [cell]: 60 });
    h.posts[0]!.resolve();
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.posts).toHaveLength(1);

    // The next minute's grid goes with the events waiting then, in one batch; the same person is no new pass.
    stand(h, HEAT_SEND_MS + 100, 2 * HEAT_SEND_MS);
    h.emit(frame("a", [crossing(7)]));
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(2);
    expect(h.ids(h.posts[1])).toEqual([7]);
    expect(nonZero(h.posts[1]!.heat!.walk)).toEqual({});
    expect(nonZero(h.posts[1]!.heat!.stay)).toEqual({ [cell]: 60 });
  });

  it("sends a failed grid again unchanged under the same id; grids of the hour taken meanwhile wait as one", async () => {
    const h = harness();
    stand(h, 0, HEAT_SEND_MS);
    await vi.advanceTimersByTimeAsync(1000);
    const first = h.posts[0]!;
    first.reject(new TypeError("Failed to fetch"));
    // Two more minutes while the server is away: one grid waiting besides the one being sent again.
    stand(h, HEAT_SEND_MS + 100, 3 * HEAT_SEND_MS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(2);
    expect(h.posts[1]!.batchId).toBe(first.batchId);
    expect(h.posts[1]!.heat).toEqual(first.heat);
    h.posts[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts).toHaveLength(3);
    expect(h.posts[2]!.batchId).not.toBe(first.batchId);
    expect(nonZero(h.posts[2]!.heat!.stay)).toEqual({ [cell]: 120 });
    h.posts[2]!.resolve();
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.posts).toHaveLength(3);
  });

  it("sends a camera's grid when another camera is selected", async () => {
    const h = harness();
    stand(h, 0, 5000);
    h.track({ cameraId: "b", at: 5100, tracks: [] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts.map((p) => p.cameraId)).toEqual(["a"]);
    expect(nonZero(h.posts[0]!.heat!.stay)).toEqual({ [cell]: 5 });
  });

  it("sends the finished hour's grid when a frame starts the next hour, and what the grid holds on dispose", async () => {
    const h = harness();
    const toNextHour = HOUR + 3_600_000 - ORIGIN;
    stand(h, toNextHour - 1000, toNextHour - 100);
    h.track({ cameraId: "a", at: toNextHour + 100, tracks: [trackAt(1, feet)] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts.map((p) => p.heat?.hour)).toEqual([HOUR]);
    h.posts[0]!.resolve();
    // The new hour's first moments, taken with it (the minute starts again there).
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.posts[1]).toMatchObject({ keepalive: false, events: [], heat: { hour: HOUR + 3_600_000 } });
    expect(nonZero(h.posts[1]!.heat!.stay)).toEqual({ [cell]: 0.2 });
    h.posts[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    h.track({ cameraId: "a", at: toNextHour + 400, tracks: [trackAt(1, feet)] });
    h.reporter.dispose();
    expect(h.posts).toHaveLength(3);
    expect(h.posts[2]).toMatchObject({ keepalive: true, events: [], heat: { hour: HOUR + 3_600_000 } });
    expect(nonZero(h.posts[2]!.heat!.stay)).toEqual({ [cell]: 0.3 });
  });
});
