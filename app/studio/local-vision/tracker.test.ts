import { describe, expect, it } from "vitest";
import { FRAME_MS, crowd, detection, walk } from "./synthetic";
import { createTracker, type Track } from "./tracker";

const left = { x: 0.1, y: 0.6 };
const right = { x: 0.9, y: 0.6 };

describe("tracker", () => {
  it("confirms a track only after confirmHits frames and keeps one id for a steadily moving object", () => {
    const tracker = createTracker({ confirmHits: 3 });
    const seen: Track[][] = [];
    for (let i = 0; i < 20; i++) seen.push(tracker.update([detection(walk(left, right, 20, i))], i * FRAME_MS));
    expect(seen.map((tracks) => tracks.length)).toEqual(Array(20).fill(1));
    expect(seen.map((tracks) => tracks[0]!.confirmed).slice(0, 4)).toEqual([false, false, true, true]);
    expect(new Set(seen.map((tracks) => tracks[0]!.id)).size).toBe(1);
    // The first measured velocity is taken whole (0.042 per 0.1 s), not smoothed towards zero.
    expect(seen[1]![0]!.velocity.x).toBeCloseTo(0.8 / 1.9, 5);
    const last = seen.at(-1)![0]!;
    expect(last).toMatchObject({ hits: 20, misses: 0, age: 20, label: "person" });
    // 0.8 of the width in 19 frames of 0.1 s.
    expect(last.velocity.x).toBeCloseTo(0.8 / 1.9, 5);
    expect(last.velocity.y).toBeCloseTo(0, 5);
  });

  it("never confirms a one-frame detection, and forgets it after maxTentativeLostMs", () => {
    const tracker = createTracker({ maxTentativeLostMs: 400 });
    const first = tracker.update([detection({ x: 0.5, y: 0.5 })], 0);
    expect(first).toMatchObject([{ confirmed: false, hits: 1 }]);
    for (let i = 1; i <= 4; i++) expect(tracker.update([], i * FRAME_MS)).toMatchObject([{ confirmed: false, misses: i }]);
    expect(tracker.update([], 5 * FRAME_MS)).toEqual([]);
  });

  it("keeps the id through an occlusion of up to maxLostMs, predicting the box meanwhile", () => {
    const tracker = createTracker({ maxLostMs: 1000 });
    const at = (i: number) => walk(left, right, 40, i);
    let id = 0;
    for (let i = 0; i < 10; i++) id = tracker.update([detection(at(i))], i * FRAME_MS)[0]!.id;
    let hidden: Track[] = [];
    for (let i = 10; i < 20; i++) hidden = tracker.update([], i * FRAME_MS); // 10 frames behind a pillar
    expect(hidden).toMatchObject([{ id, misses: 10, confirmed: true }]);
    // The motion model walked it on at full speed for 0.4 s, then slowed: short of where it really is, never past it.
    const predictedX = (hidden[0]!.box.x_min + hidden[0]!.box.x_max) / 2;
    expect(predictedX).toBeGreaterThan(at(14).x);
    expect(predictedX).toBeLessThan(at(19).x);
    const back = tracker.update([detection(at(20))], 20 * FRAME_MS);
    expect(back).toMatchObject([{ id, misses: 0 }]);
  });

  it("gives a new id to an object that stays away longer than maxLostMs", () => {
    const tracker = createTracker({ maxLostMs: 500 });
    const still = { x: 0.5, y: 0.5 };
    let id = 0;
    for (let i = 0; i < 5; i++) id = tracker.update([detection(still)], i * FRAME_MS)[0]!.id;
    for (let i = 5; i < 11; i++) tracker.update([], i * FRAME_MS);
    expect(tracker.tracks()).toEqual([]);
    expect(tracker.update([detection(still)], 11 * FRAME_MS)[0]!.id).not.toBe(id);
  });

  it("keeps two people apart when their paths cross, thanks to the motion model", () => {
    const tracker = createTracker();
    const a = (i: number) => walk({ x: 0.2, y: 0.6 }, { x: 0.8, y: 0.62 }, 30, i);
    const b = (i: number) => walk({ x: 0.8, y: 0.62 }, { x: 0.2, y: 0.6 }, 30, i);
    let tracks: Track[] = [];
    for (let i = 0; i < 30; i++) tracks = tracker.update([detection(a(i)), detection(b(i))], i * FRAME_MS);
    expect(tracks).toHaveLength(2);
    const [first, second] = tracks.sort((x, y) => x.id - y.id);
    // The first track began as `a` (on the left) and must end where `a` ends (on the right).
    expect((first!.box.x_min + first!.box.x_max) / 2).toBeCloseTo(a(29).x, 5);
    expect((second!.box.x_min + second!.box.x_max) / 2).toBeCloseTo(b(29).x, 5);
  });

  it("continues a confirmed track with a weak detection (second pass) but never starts one from it", () => {
    const tracker = createTracker({ highScore: 0.5, highScoreByLabel: {}, lowScore: 0.1 });
    const spot = { x: 0.5, y: 0.5 };
    for (let i = 0; i < 4; i++) tracker.update([detection(spot)], i * FRAME_MS);
    const weak = tracker.update([detection(spot, "person", 0.3), detection({ x: 0.1, y: 0.9 }, "person", 0.3)], 4 * FRAME_MS);
    expect(weak).toMatchObject([{ id: 1, misses: 0, hits: 5 }]);
    // Below lowScore a detection is ignored altogether.
    expect(tracker.update([detection(spot, "person", 0.05)], 5 * FRAME_MS)).toMatchObject([{ id: 1, misses: 1 }]);
  });

  it("starts a person's track from 0.3 (measured on real footage), another class's from 0.5", () => {
    const tracker = createTracker();
    const frames = [0, 1, 2].map((i) => tracker.update([detection({ x: 0.3, y: 0.5 }, "person", 0.32), detection({ x: 0.7, y: 0.5 }, "cup", 0.45)], i * 200));
    expect(frames.at(-1)!.map((t) => [t.label, t.confirmed])).toEqual([["person", true]]);
  });

  it("matches only detections of the track's own class", () => {
    const tracker = createTracker();
    const spot = { x: 0.5, y: 0.5 };
    for (let i = 0; i < 4; i++) tracker.update([detection(spot)], i * FRAME_MS);
    const tracks = tracker.update([detection(spot, "dog")], 4 * FRAME_MS);
    expect(tracks.map((t) => [t.id, t.label, t.misses])).toEqual([
      [1, "person", 1],
      [2, "dog", 0],
    ]);
  });

  it("matches a small fast object by its centre when the boxes no longer overlap", () => {
    const tracker = createTracker();
    // A ball 0.02 wide moving 0.025 a frame, and speeding up: the prediction lags, the boxes never overlap.
    let x = 0.1;
    let step = 0.025;
    let tracks: Track[] = [];
    for (let i = 0; i < 10; i++, x += step, step += 0.003) tracks = tracker.update([detection({ x, y: 0.5 }, "sports ball", 0.9, 0.02, 0.02)], i * FRAME_MS);
    expect(tracks).toMatchObject([{ id: 1, hits: 10 }]);
  });

  it("keeps the ids of a parent and a child walking side by side, the child's box inside the parent's", () => {
    // Greedy best-pair-first matching gave the child's track the parent's jittering box (their overlap scored a little
    // higher than the parent's own) and started the child afresh; the optimal matching keeps both.
    const tracker = createTracker();
    const ids: Array<[adult: number, child: number]> = [];
    for (let i = 0; i < 25; i++) {
      const x = 0.2 + i * 0.03; // 0.15 picture widths a second at 5 frames a second
      const jitter = (i % 2 ? 1 : -1) * 0.012;
      const adult = detection({ x: x + jitter, y: 0.8 }, "person", 0.8, 0.1, 0.3);
      const child = detection({ x: x + 0.02, y: 0.78 }, "person", 0.7, 0.07, 0.2);
      const tracks = tracker.update([adult, child], i * 200);
      const tall = (t: Track) => t.box.y_max - t.box.y_min > 0.25;
      ids.push([tracks.find(tall)!.id, tracks.find((t) => !tall(t))!.id]);
    }
    expect(new Set(ids.map(([adult, child]) => `${adult} ${child}`))).toEqual(new Set(["1 2"]));
  });

  it("keeps a person standing still, scored 0.28 frame after frame, through 1.3 s unseen at 30 frames a second", () => {
    // Walks in with confident boxes, stands at a table for 10 s scored 0.28 with a jittering box, and someone walking
    // in front hides them for 40 frames: a frame count (30) lost them at a fast detector's rate; time does not.
    const tracker = createTracker();
    const frame = 1000 / 30;
    const spot = { x: 0.45, y: 0.85 };
    let id = 0;
    for (let i = 0; i < 10; i++) id = tracker.update([detection(spot, "person", 0.7, 0.15, 0.5)], i * frame)[0]!.id;
    const ids = new Set<number>();
    for (let i = 10; i < 310; i++) {
      const hidden = i >= 150 && i < 190;
      const wobble = ((i % 5) - 2) * 0.002;
      const tracks = tracker.update(hidden ? [] : [detection({ x: spot.x + wobble, y: spot.y }, "person", 0.28, 0.15, 0.5)], i * frame);
      tracks.forEach((t) => ids.add(t.id));
    }
    expect([...ids]).toEqual([id]);
    expect(tracker.tracks()).toMatchObject([{ id, confirmed: true, misses: 0, score: 0.28 }]);
  });

  it("is deterministic: the same frames give the same tracks", () => {
    const frames = crowd(30, 60, 7);
    const run = () => {
      const tracker = createTracker();
      return frames.map((detections, i) => tracker.update(detections, i * FRAME_MS));
    };
    expect(run()).toEqual(run());
  });
});
