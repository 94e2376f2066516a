// The motion detector on synthetic frames: a still scene, a moving block, noise, the lights switched. On real footage:
// tests/integration/pipeline-motion.test.ts.
import { describe, expect, it } from "vitest";
import { createMotionDetector } from "./motion";
import type { MotionResult, RawFrame, Region } from "./types";

const W = 640;
const H = 360;

/** A textured still scene (so a block moving over it changes pixels everywhere it goes), seeded for repeatability. */
function scene(seed = 1): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  let state = seed;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      // Large soft patterns plus a little fixed grain: a room, not a checkerboard.
      const base = 110 + 50 * Math.sin(x / 37) * Math.cos(y / 23) + ((state >> 16) % 9);
      const i = (y * W + x) * 3;
      rgb[i] = base;
      rgb[i + 1] = base + 10;
      rgb[i + 2] = base - 10;
    }
  }
  return rgb;
}

function frame(rgb: Uint8Array, at = 0): RawFrame {
  return { width: W, height: H, rgb, at };
}

/** The scene with a dark square (a person, roughly) at x, y (pixels). */
function withBlock(background: Uint8Array, x: number, y: number, size = 60): Uint8Array {
  const rgb = Uint8Array.from(background);
  for (let row = y; row < y + size; row++) rgb.fill(20, (row * W + x) * 3, (row * W + x + size) * 3);
  return rgb;
}

/** Each pixel off by up to ±amplitude levels (sensor noise), a new draw every call. */
function noisy(background: Uint8Array, amplitude: number, seed: number): Uint8Array {
  const rgb = new Uint8Array(background.length);
  let state = seed;
  for (let i = 0; i < rgb.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    rgb[i] = Math.max(0, Math.min(255, background[i]! + ((state >> 16) % (2 * amplitude + 1)) - amplitude));
  }
  return rgb;
}

const contains = (region: Region, box: Region) => region.x <= box.x && region.y <= box.y && region.x + region.w >= box.x + box.w && region.y + region.h >= box.y + box.h;

describe("motion detector", () => {
  it("finds nothing in a still scene once it has learnt it", () => {
    const motion = createMotionDetector();
    const still = scene();
    for (let i = 0; i < 5; i++) motion.update(frame(still));
    for (let i = 0; i < 20; i++) expect(motion.update(frame(still))).toEqual({ moving: 0, regions: [] });
  });

  it("boxes a moving block, padded, as fractions of the frame", () => {
    const motion = createMotionDetector();
    const still = scene();
    for (let i = 0; i < 10; i++) motion.update(frame(still));
    let result: MotionResult = { moving: 0, regions: [] };
    let block: Region = { x: 0, y: 0, w: 0, h: 0 };
    for (let step = 0; step < 8; step++) {
      const x = 100 + step * 20;
      result = motion.update(frame(withBlock(still, x, 150)));
      block = { x: x / W, y: 150 / H, w: 60 / W, h: 60 / H };
    }
    expect(result.regions).toHaveLength(1);
    const [region] = result.regions;
    expect(contains(region!, block)).toBe(true);
    // Around the block and its recent path (the background is still learning where it was), not the whole picture.
    expect(region!.x).toBeGreaterThan(0.1);
    expect(region!.x + region!.w).toBeLessThan(block.x + block.w + 0.05);
    expect(region!.y).toBeGreaterThan(0.3);
    expect(region!.y + region!.h).toBeLessThan(0.65);
    expect(result.moving).toBeGreaterThan(0.005);
    expect(result.moving).toBeLessThan(0.1);
  });

  it("lists two things moving apart as two regions, the larger first", () => {
    const motion = createMotionDetector();
    const still = scene();
    for (let i = 0; i < 10; i++) motion.update(frame(still));
    const result = motion.update(frame(withBlock(withBlock(still, 40, 40, 40), 450, 200, 100)));
    expect(result.regions).toHaveLength(2);
    expect(contains(result.regions[0]!, { x: 450 / W, y: 200 / H, w: 100 / W, h: 100 / H })).toBe(true);
    expect(contains(result.regions[1]!, { x: 40 / W, y: 40 / H, w: 40 / W, h: 40 / H })).toBe(true);
  });

  it("ignores noise below the threshold and specks too small to be anything", () => {
    const motion = createMotionDetector();
    const still = scene();
    for (let i = 0; i < 10; i++) motion.update(frame(still));
    for (let i = 0; i < 10; i++) expect(motion.update(frame(noisy(still, 20, i + 1))).regions).toEqual([]);
    // A 10×10 px speck flickering (a bad pixel cluster, an insect on the lens): it crosses the threshold, but is too small.
    for (let i = 0; i < 5; i++) expect(motion.update(frame(i % 2 ? withBlock(still, 300, 100, 10) : still)).regions).toEqual([]);
  });

  it("takes the lights switched on as a new background, not as motion, and still sees what moves after", () => {
    const motion = createMotionDetector();
    const still = scene();
    for (let i = 0; i < 10; i++) motion.update(frame(still));
    const brighter = still.map((value) => Math.min(255, value + 70));
    for (let i = 0; i < 10; i++) expect(motion.update(frame(brighter))).toEqual({ moving: 0, regions: [] });
    const moved = motion.update(frame(withBlock(brighter, 300, 100)));
    expect(moved.regions).toHaveLength(1);
    expect(contains(moved.regions[0]!, { x: 300 / W, y: 100 / H, w: 60 / W, h: 60 / H })).toBe(true);
  });
});
