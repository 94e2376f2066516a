import { describe, expect, it } from "vitest";
import type { ZoneEvent } from "./events";
import type { Point } from "./geometry";
import { createScene } from "./scene";
import { FRAME_MS, detection, trackAt, walk } from "./synthetic";
import type { Track } from "./tracker";
import { createZoneWatcher, type ZoneDefinition } from "./zones";

// A counter area in the middle of the picture (a concave L-shape, so the polygon test is a real one).
const counter: ZoneDefinition = {
  id: "counter",
  polygon: [
    { x: 0.3, y: 0.3 },
    { x: 0.7, y: 0.3 },
    { x: 0.7, y: 0.5 },
    { x: 0.5, y: 0.5 },
    { x: 0.5, y: 0.7 },
    { x: 0.3, y: 0.7 },
  ],
  inertia: 3,
};
const inside = { x: 0.4, y: 0.6 };
const outside = { x: 0.6, y: 0.6 }; // in the L's notch: inside the bounding box, outside the polygon

const track = trackAt;

/** Feeds one track's positions, a frame each, and returns each frame's events. */
function feed(zones: ZoneDefinition[], positions: Point[], options: Partial<Track> = {}) {
  const watcher = createZoneWatcher(zones);
  const events = positions.map((feet, i) => watcher.update([track(1, feet, options)], i * FRAME_MS));
  return { watcher, events };
}

const types = (events: ZoneEvent[][]) => events.map((frame) => frame.map((event) => event.type).join(",") || "-");

describe("zones", () => {
  it("enters only after `inertia` frames in a row inside, and exits after as many outside", () => {
    const { events } = feed([counter], [outside, inside, inside, outside, inside, inside, inside, inside, outside, outside, inside, outside, outside, outside]);
    expect(types(events)).toEqual(["-", "-", "-", "-", "-", "-", "zone.entered", "-", "-", "-", "-", "-", "-", "zone.exited"]);
    const exited = events.at(-1)![0]!;
    // In from the first of the three frames inside (frame 4) to the first of the three frames outside (frame 11).
    expect(exited).toMatchObject({ zoneId: "counter", trackId: 1, label: "person", dwellSeconds: 0.7, at: 13 * FRAME_MS });
  });

  it("reports occupancy now, by class, with each occupant's dwell time", () => {
    const watcher = createZoneWatcher([counter]);
    for (let i = 0; i < 5; i++) {
      watcher.update([track(1, inside), track(2, { x: 0.35, y: 0.4 }, { label: "dog" }), track(3, outside)], i * FRAME_MS);
    }
    const now = watcher.occupancy().counter!;
    expect(now.count).toBe(2);
    expect(now.byLabel).toEqual({ person: 1, dog: 1 });
    expect(now.occupants.map((o) => [o.trackId, o.dwellSeconds])).toEqual([
      [1, 0.4],
      [2, 0.4],
    ]);
  });

  it("fires loitering once per stay, when the dwell time reaches loiterSeconds", () => {
    const zone = { ...counter, loiterSeconds: 1 };
    // 3 frames to enter (dwell counted from the first), then stays: 1 s after the first frame inside is frame 10.
    const stay = Array<Point>(15).fill(inside);
    const { events } = feed([zone], [...stay, outside, outside, outside, ...stay]);
    const all = events.flat();
    expect(all.map((event) => [event.type, event.at / FRAME_MS])).toEqual([
      ["zone.entered", 2],
      ["zone.loitering", 10],
      ["zone.exited", 17],
      ["zone.entered", 20],
      ["zone.loitering", 28],
    ]);
    expect(all[1]).toMatchObject({ dwellSeconds: 1 });
    expect(types(events).slice(0, 10)).not.toContain("zone.loitering");
  });

  it("watches only its classes", () => {
    const { events } = feed([{ ...counter, labels: ["person"] }], Array<Point>(5).fill(inside), { label: "cat" });
    expect(events.flat()).toEqual([]);
    const { events: people } = feed([{ ...counter, labels: ["person", "cat"] }], Array<Point>(5).fill(inside), { label: "cat" });
    expect(people.flat()).toMatchObject([{ type: "zone.entered", label: "cat" }]);
  });

  it("ignores unconfirmed tracks", () => {
    const { watcher, events } = feed([counter], Array<Point>(6).fill(inside), { confirmed: false });
    expect(events.flat()).toEqual([]);
    expect(watcher.occupancy().counter!.count).toBe(0);
  });

  it("keeps an occluded track inside, and lets a track the tracker dropped exit with its dwell time", () => {
    const watcher = createZoneWatcher([counter]);
    for (let i = 0; i < 5; i++) watcher.update([track(1, inside)], i * FRAME_MS);
    // Missed frames: the predicted box has drifted outside, but that is no evidence.
    for (let i = 5; i < 10; i++) expect(watcher.update([track(1, outside, { misses: i - 4 })], i * FRAME_MS)).toEqual([]);
    expect(watcher.occupancy().counter!.count).toBe(1);
    const gone = watcher.update([], 10 * FRAME_MS);
    expect(gone).toMatchObject([{ type: "zone.exited", trackId: 1, dwellSeconds: 0.4, at: 10 * FRAME_MS }]);
    expect(watcher.occupancy().counter!.occupants).toEqual([]);
    // The count shown is a median over a second: it holds through one frame, and drops within half a second.
    expect(watcher.occupancy().counter!.count).toBe(1);
    for (let i = 11; i < 16; i++) watcher.update([], i * FRAME_MS);
    expect(watcher.occupancy().counter!.count).toBe(0);
  });

  it("holds the occupancy when a person's track is lost and picked up again under a new id", () => {
    // A person at the counter; the tracker loses them (their track ends) and starts a new track a frame later, which
    // must be inside for `inertia` frames before it enters: the count must not dip to 0 meanwhile.
    const watcher = createZoneWatcher([counter]);
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      watcher.update([track(1, inside)], i * FRAME_MS);
      counts.push(watcher.occupancy().counter!.count);
    }
    for (let i = 10; i < 20; i++) {
      watcher.update(i === 10 ? [] : [track(2, inside)], i * FRAME_MS);
      counts.push(watcher.occupancy().counter!.count);
    }
    expect(counts.slice(5)).toEqual(Array(15).fill(1));
    // A real exit still shows, within half a second.
    for (let i = 20; i < 26; i++) watcher.update([], i * FRAME_MS);
    expect(watcher.occupancy().counter!.count).toBe(0);
  });

  it("uses the chosen anchor point", () => {
    // Feet below the zone, centre of the box (0.1 higher) inside it.
    const below = { x: 0.4, y: 0.75 };
    expect(feed([counter], Array<Point>(4).fill(below)).events.flat()).toEqual([]);
    expect(feed([{ ...counter, anchor: "centre" }], Array<Point>(4).fill(below)).events.flat()).toMatchObject([{ type: "zone.entered" }]);
  });

  it("follows people walking through with the tracker: enter then exit, one pair per person", () => {
    const scene = createScene({ zones: [counter] });
    const events: ZoneEvent[] = [];
    for (let i = 0; i < 40; i++) {
      const detections = [detection(walk({ x: 0.1, y: 0.6 }, { x: 0.9, y: 0.6 }, 40, i)), detection(walk({ x: 0.4, y: 0.1 }, { x: 0.4, y: 0.95 }, 40, i))];
      for (const event of scene.step(detections, i * FRAME_MS).events) if (event.type !== "line.crossed") events.push(event);
    }
    // Both step in at frame 10 (entered at 12 after inertia); 1 steps out at 20, 2 at 28.
    expect(events.map((event) => `${event.trackId} ${event.type} ${event.at / FRAME_MS}`)).toEqual([
      "1 zone.entered 12",
      "2 zone.entered 12",
      "1 zone.exited 22",
      "2 zone.exited 30",
    ]);
  });
});
