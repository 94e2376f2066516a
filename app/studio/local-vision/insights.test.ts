import { describe, expect, it } from "vitest";
import { INSIGHT_CAPACITY, insightStatus, missText, type Miss } from "./insights";
import { createLineCounter, type LineDefinition } from "./lines";
import { trackAt } from "./synthetic";
import type { Track } from "./tracker";
import { createZoneWatcher, type ZoneDefinition } from "./zones";

// A doorway across the middle (walking down crosses `in`); boxes are 0.2 high, so the margin around it is ±0.01.
const door: LineDefinition = { id: "door", a: { x: 0.3, y: 0.5 }, b: { x: 0.7, y: 0.5 }, labels: ["person"] };
const person = (id: number, x: number, y: number, options: Partial<Track> = {}) => trackAt(id, { x, y }, options);

/** Feeds one frame per entry (100 ms apart) and returns the counter. */
function feed(frames: Track[][], line = door) {
  const counter = createLineCounter([line]);
  frames.forEach((tracks, i) => counter.update(tracks, i * 100));
  return counter;
}

describe("line inspector", () => {
  it("counts a track that ended past the line before it settled there, as of when it was last seen", () => {
    // The person left the picture just past the line: a clicker counts them, however many settle frames were asked.
    const counter = feed([[person(1, 0.5, 0.3)], [person(1, 0.5, 0.4)], [person(1, 0.5, 0.6)], [person(1, 0.5, 0.65)], []], { ...door, settleFrames: 3 });
    expect(counter.counts().door!.in).toBe(1);
    expect(counter.insights().door!.happenings).toEqual([{ at: 300, trackId: 1, label: "person", what: "in" }]);
    expect(counter.insights().door!.misses).toEqual([]);
  });

  it("says a track stayed in the neutral band, whether it turned back or ended there", () => {
    const back = feed([[person(1, 0.5, 0.4)], [person(1, 0.5, 0.5)], [person(1, 0.5, 0.505)], [person(1, 0.5, 0.4)]]);
    expect(back.insights().door!.misses.map((m) => m.reason)).toEqual([{ kind: "neutral-band" }]);
    const ended = feed([[person(2, 0.5, 0.4)], [person(2, 0.5, 0.495)], []]);
    expect(ended.insights().door!.misses).toMatchObject([{ trackId: 2, reason: { kind: "neutral-band" } }]);
  });

  it("names a class the line does not count, a crossing beyond its ends, and one made back before settling", () => {
    const car = (y: number) => person(3, 0.5, y, { label: "car" });
    expect(feed([[car(0.3)], [car(0.6)], [car(0.7)]]).insights().door!.misses).toMatchObject([{ trackId: 3, label: "car", reason: { kind: "class" } }]);
    const wide = feed([0.3, 0.4, 0.6, 0.65, 0.7].map((y) => [person(4, 0.9, y)]));
    expect(wide.insights().door!.misses.map((m) => m.reason)).toEqual([{ kind: "beyond-ends" }]);
    const wavered = feed(
      [0.3, 0.4, 0.6, 0.4].map((y) => [person(5, 0.5, y)]),
      { ...door, settleFrames: 3 },
    );
    expect(wavered.insights().door!.misses.map((m) => m.reason)).toEqual([{ kind: "went-back", frames: 1, needed: 3 }]);
  });

  it("lists the counted crossings and the tracks near the line now, with their side and distance", () => {
    const counter = feed([0.3, 0.4, 0.6, 0.62, 0.64, 0.6].map((y) => [person(6, 0.5, y), person(7, 0.4, 0.45), person(8, 0.1, 0.1)]));
    const insight = counter.insights().door!;
    // Counted on the first frame clear past the line.
    expect(insight.happenings).toEqual([{ at: 200, trackId: 6, label: "person", what: "in" }]);
    expect(insight.near.map(({ trackId, where }) => ({ trackId, where }))).toEqual([
      { trackId: 7, where: "out" },
      { trackId: 6, where: "in" },
    ]);
    expect(insight.near[0]!.distance).toBeCloseTo(0.05);
    expect(insight.misses).toEqual([]);
  });

  it("keeps a bounded number of misses, and knows when it last saw a detection", () => {
    const frames: Track[][] = [];
    for (let id = 1; id <= 3 * INSIGHT_CAPACITY; id++) frames.push([person(id, 0.5, 0.4)], [person(id, 0.5, 0.6)], [person(id, 0.5, 0.4)]);
    frames.push([], []);
    const insight = feed(frames, { ...door, settleFrames: 3 }).insights().door!;
    expect(insight.misses).toHaveLength(INSIGHT_CAPACITY);
    expect(insight.misses.at(-1)!.trackId).toBe(3 * INSIGHT_CAPACITY);
    expect(insight.lastFrameAt).toBe((frames.length - 1) * 100);
    expect(insight.lastDetectionAt).toBe((frames.length - 3) * 100);
  });

  it("forgets its crossings and misses when the line is reset", () => {
    const counter = feed([[person(1, 0.5, 0.3)], [person(1, 0.5, 0.5)], [person(1, 0.5, 0.3)]]);
    expect(counter.insights().door!.misses).toHaveLength(1);
    counter.reset("door");
    expect(counter.insights().door!.misses).toEqual([]);
  });
});

describe("zone inspector", () => {
  const till: ZoneDefinition = {
    id: "till",
    polygon: [
      { x: 0.2, y: 0.2 },
      { x: 0.6, y: 0.2 },
      { x: 0.6, y: 0.6 },
      { x: 0.2, y: 0.6 },
    ],
    labels: ["person"],
  };
  const run = (frames: Track[][]) => {
    const watcher = createZoneWatcher([till]);
    frames.forEach((tracks, i) => watcher.update(tracks, i * 100));
    return watcher.insights().till!;
  };

  it("says who stepped in and out again before the inertia, who ended inside too soon, and which class it does not watch", () => {
    const insight = run([
      [person(1, 0.1, 0.4), person(2, 0.1, 0.4), person(3, 0.4, 0.4, { label: "dog" })],
      [person(1, 0.3, 0.4), person(2, 0.3, 0.4), person(3, 0.4, 0.4, { label: "dog" })],
      [person(1, 0.1, 0.4), person(2, 0.35, 0.4)],
      [person(1, 0.1, 0.4)],
    ]);
    expect(insight.misses).toEqual([
      { at: 0, trackId: 3, label: "dog", reason: { kind: "class" } },
      { at: 200, trackId: 1, label: "person", reason: { kind: "went-back", frames: 1, needed: 3 } },
      { at: 200, trackId: 2, label: "person", reason: { kind: "ended-unsettled", frames: 2, needed: 3, seconds: 0.1 } },
    ]);
    expect(insight.near).toMatchObject([{ trackId: 1, where: "outside", counted: true }]);
  });

  it("lists its entries and exits", () => {
    const inside = Array.from({ length: 4 }, () => [person(1, 0.4, 0.4)]);
    const insight = run([[person(1, 0.1, 0.4)], ...inside, []]);
    expect(insight.happenings.map((h) => h.what)).toEqual(["entered", "exited"]);
  });
});

describe("inspector text", () => {
  it("says why in words, and what the line or zone is waiting for", () => {
    const miss = (reason: Miss["reason"]): Miss => ({ at: 0, trackId: 4, label: "car", reason });
    expect(missText("line", miss({ kind: "ended-unsettled", frames: 1, needed: 3, seconds: 0.4 }))).toBe(
      "track ended 0.4 s after reaching the line: needed 3 settled frames, had 1",
    );
    expect(missText("line", miss({ kind: "neutral-band" }))).toBe("stayed on the line (within its margin) and never got clear past it");
    expect(missText("line", miss({ kind: "class" }))).toBe("class car not counted by this line");
    expect(missText("zone", miss({ kind: "went-back", frames: 1, needed: 3 }))).toBe("left again after 1 of 3 frames inside");
    const insight = { near: [], happenings: [], misses: [], lastFrameAt: 50_000, lastDetectionAt: 10_000 };
    expect(insightStatus(insight, false)).toBe("Nothing is counting: switch on Local Detection (or Count People Locally).");
    expect(insightStatus(insight, true)).toBe("No detections for 40 s.");
    expect(insightStatus({ ...insight, lastDetectionAt: 49_000 }, true)).toBe("No tracks near it now.");
  });
});
