// The follower on its own: dead zone, saturation, braking, zoom, the lost subject, and a delayed loop
// (a simulated head seen through pictures 0.3–1 s old) that must converge without oscillating.
import { describe, expect, it } from "vitest";
import type { Box } from "../../schemas/vision";
import { DEAD_ZONE, DEFAULT_FOLLOW_SETTINGS, Follower, type FollowSettings, pickSubject } from "./follow";

const box = (x: number, y: number, h = 0.2, w = 0.1): Box => ({ x_min: x - w / 2, x_max: x + w / 2, y_min: y - h / 2, y_max: y + h / 2 });
const settings = (patch: Partial<FollowSettings> = {}): FollowSettings => ({ ...DEFAULT_FOLLOW_SETTINGS, ...patch });

describe("follower", () => {
  it("does nothing inside the dead zone, starts beyond its outer edge and stops only inside the inner one", () => {
    const f = new Follower(settings());
    expect(f.update([box(0.5 + 0.06, 0.5)], 0).pan).toBe(0);
    expect(f.status.phase).toBe("centred");
    expect(f.update([box(0.5 + 0.1, 0.5)], 500).pan).toBeGreaterThan(0);
    // Once moving it carries on through the band between the edges (hysteresis: no stop-start chatter)…
    expect(f.update([box(0.5 + 0.06, 0.5)], 1000).pan).toBeGreaterThan(0);
    // …and stops inside the inner edge.
    expect(f.update([box(0.5 + DEAD_ZONE.inner - 0.01, 0.5)], 1500)).toEqual({ pan: 0, tilt: 0, zoom: 0, recallPreset: null });
    expect(f.update([box(0.5 + 0.06, 0.5)], 2000).pan).toBe(0);
  });

  it("is proportional, saturates at the speed cap, never below 1 when moving, and tilt up is positive", () => {
    const f = new Follower(settings({ maxSpeed: 24 }));
    const far = f.update([box(0.99, 0.01)], 0);
    f.reset();
    const near = f.update([box(0.6, 0.4)], 0);
    expect(far.pan).toBeGreaterThan(near.pan);
    expect(far.tilt).toBeGreaterThan(0);
    f.reset();
    // Results 200 ms apart ask for five times the speed of results a second apart: pan hits the cap of 12.
    const fast = new Follower(settings());
    fast.update([box(0.5, 0.5)], 0);
    expect(fast.update([box(0.99, 0.99)], 200)).toMatchObject({ pan: 12, tilt: -8 });
    const capped = new Follower(settings({ maxSpeed: 7 }));
    capped.update([box(0.5, 0.5)], 0);
    expect(capped.update([box(0.01, 0.5)], 200).pan).toBe(-7);
    const slow = new Follower(settings());
    slow.update([box(0.5, 0.5)], 0);
    expect(slow.update([box(0.59, 0.5)], 3000).pan).toBe(1);
  });

  it("brakes to a stop before reversing", () => {
    const f = new Follower(settings());
    expect(f.update([box(0.8, 0.5)], 0).pan).toBeGreaterThan(0);
    expect(f.update([box(0.3, 0.5)], 500).pan).toBe(0);
    expect(f.update([box(0.3, 0.5)], 1000).pan).toBeLessThan(0);
  });

  it("follows the box nearest to where the subject was, not the first one", () => {
    expect(pickSubject([box(0.9, 0.9), box(0.45, 0.5)], null)).toEqual(box(0.45, 0.5));
    const f = new Follower(settings());
    f.update([box(0.2, 0.5)], 0);
    expect(f.update([box(0.75, 0.5), box(0.25, 0.5)], 500).pan).toBeLessThan(0);
    expect(f.status.subject).toEqual(box(0.25, 0.5));
  });

  it("zooms in on a small centred subject, out on a large one, and never in while it is off-centre", () => {
    const f = new Follower(settings({ zoom: true, targetHeight: 0.4 }));
    expect(f.update([box(0.5, 0.5, 0.1)], 0).zoom).toBeGreaterThan(0);
    expect(f.update([box(0.5, 0.5, 0.9)], 500).zoom).toBeLessThan(0);
    expect(f.update([box(0.5, 0.5, 0.42)], 1000).zoom).toBe(0);
    expect(f.update([box(0.9, 0.5, 0.1)], 1500)).toMatchObject({ zoom: 0 });
    expect(new Follower(settings({ zoom: false })).update([box(0.5, 0.5, 0.1)], 0).zoom).toBe(0);
  });

  it("holds still while the subject is missing, recalls the preset once after the set time, and picks it up again", () => {
    const f = new Follower(settings({ returnPreset: 4, lostSeconds: 3 }));
    expect(f.update([box(0.9, 0.5)], 0).pan).toBeGreaterThan(0);
    expect(f.update([], 1000)).toEqual({ pan: 0, tilt: 0, zoom: 0, recallPreset: null });
    expect(f.status.phase).toBe("searching");
    expect(f.update([], 2900).recallPreset).toBeNull();
    expect(f.update([], 3000)).toEqual({ pan: 0, tilt: 0, zoom: 0, recallPreset: 4 });
    expect(f.status.phase).toBe("lost");
    expect(f.update([], 4000).recallPreset).toBeNull();
    expect(f.update([box(0.2, 0.5)], 5000).pan).toBeLessThan(0);
    expect(f.update([], 6000).recallPreset).toBeNull();
    expect(f.update([], 8000).recallPreset).toBe(4);
    const noPreset = new Follower(settings({ returnPreset: null, lostSeconds: 1 }));
    noPreset.update([], 0);
    expect(noPreset.update([], 1000)).toEqual({ pan: 0, tilt: 0, zoom: 0, recallPreset: null });
  });
});

/**
 * A head turning 2°/s per speed unit with a 60° × 33.75° view (PTZOptics 20X wide), a subject at a fixed
 * angle, results `latency` s after their frame and the next frame taken `gap` s after that, and the server's 2 s watchdog.
 */
function closedLoop(latency: number, gap: number, start: { x: number; y: number }, ticks: number, degPerUnit = 2) {
  const hfov = 60;
  const vfov = hfov / (16 / 9);
  const head = { pan: 0, tilt: 0, vPan: 0, vTilt: 0 };
  const subject = { pan: (start.x - 0.5) * hfov, tilt: (0.5 - start.y) * vfov };
  const f = new Follower(settings());
  const trace: { x: number; y: number; pan: number; tilt: number }[] = [];
  // The server's watchdog: a drive stops 2 s after it was sent unless another one follows.
  let driving = 0;
  const run = (seconds: number) => {
    const moving = Math.max(0, Math.min(seconds, 2 - driving));
    driving += seconds;
    head.pan += head.vPan * degPerUnit * moving;
    head.tilt += head.vTilt * degPerUnit * moving;
  };
  let t = 0;
  for (let i = 0; i < ticks; i++) {
    const x = 0.5 + (subject.pan - head.pan) / hfov;
    const y = 0.5 - (subject.tilt - head.tilt) / vfov;
    run(latency);
    const command = f.update([box(x, y)], t * 1000);
    trace.push({ x: x - 0.5, y: 0.5 - y, pan: command.pan, tilt: command.tilt });
    [head.vPan, head.vTilt] = [command.pan, command.tilt];
    driving = 0;
    run(gap);
    t += latency + gap;
  }
  return trace;
}

const signFlips = (values: number[]) =>
  values.filter((v, i) => i > 0 && Math.abs(v) >= DEAD_ZONE.inner && Math.sign(v) !== Math.sign(values[i - 1]!) && Math.abs(values[i - 1]!) >= DEAD_ZONE.inner).length;

describe("follower in a delayed loop", () => {
  it("learns a camera three times faster than it is tuned for: a few shrinking swings, then still near the centre", () => {
    for (const [latency, gap] of [
      [0.5, 0],
      [1.0, 1.0],
    ] as const) {
      const trace = closedLoop(latency, gap, { x: 0.92, y: 0.9 }, 40, 6);
      const settled = trace.findIndex((s, i) => trace.slice(i).every((r) => r.pan === 0 && r.tilt === 0));
      expect(settled, JSON.stringify(trace.slice(0, 16))).toBeGreaterThanOrEqual(0);
      expect(settled).toBeLessThanOrEqual(14);
      expect(signFlips(trace.map((s) => s.x))).toBeLessThanOrEqual(3);
      expect(signFlips(trace.map((s) => s.y))).toBeLessThanOrEqual(3);
      expect(Math.abs(trace.at(-1)!.x)).toBeLessThan(DEAD_ZONE.outer);
      expect(Math.abs(trace.at(-1)!.y)).toBeLessThan(DEAD_ZONE.outer);
    }
  });

  for (const [latency, gap] of [
    [0.3, 0],
    [0.6, 0.2],
    [1.0, 0],
    [0.5, 1.0],
    // The studio's 2 s detection interval with a slow answer: the watchdog cuts each drive at 2 s.
    [1.0, 2.0],
  ] as const) {
    it(`brings a corner subject to the centre and stays there (results ${latency} s late, ${gap} s apart)`, () => {
      const trace = closedLoop(latency, gap, { x: 0.08, y: 0.1 }, 40);
      const settled = trace.findIndex((s, i) => trace.slice(i).every((r) => Math.abs(r.x) < DEAD_ZONE.outer && Math.abs(r.y) < DEAD_ZONE.outer));
      expect(settled, JSON.stringify(trace.slice(0, 16))).toBeGreaterThanOrEqual(0);

      expect(settled).toBeLessThanOrEqual(12);
      // No oscillation: the offset changes side at most once per axis, and once settled the camera is still.
      expect(signFlips(trace.map((s) => s.x))).toBeLessThanOrEqual(1);
      expect(signFlips(trace.map((s) => s.y))).toBeLessThanOrEqual(1);
      expect(trace.slice(settled + 2).every((s) => s.pan === 0 && s.tilt === 0)).toBe(true);
    });
  }
});
