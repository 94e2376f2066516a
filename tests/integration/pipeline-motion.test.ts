// The motion detector on real footage (the people clip of ../shared/data/real: an empty room, then a person walking in
// and out), decoded by the real ffmpeg at the pipeline's rate and width. Synthetic cases: server/local-vision/pipeline/motion.test.ts.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMotionDetector } from "#server/local-vision/pipeline/motion";
import type { MotionResult } from "#server/local-vision/pipeline/types";
import { REAL_CLIP, realDataFile } from "../support/real-data";

describe("motion detector on real footage", () => {
  it("sees the people walking in the real footage, and nothing in the empty room before them", async () => {
    const video = realDataFile(REAL_CLIP);
    const truth = JSON.parse(readFileSync(video.replace(/\.mp4$/, ".gt.json"), "utf8")) as {
      empty_intervals_s: [number, number][];
      people: { enters_s: [number, number]; crosses_V75_s: [number, number] }[];
    };
    const fps = 5;
    const results = await motionOverClip(video, fps, 25);
    const at = (from: number, to: number) => results.filter((_, i) => i / fps >= from && i / fps <= to);

    // The room is empty until the first person comes in from the bottom edge (after the first frame, the background).
    const [, emptyUntil] = truth.empty_intervals_s[0]!;
    const empty = at(0.2, emptyUntil - 0.5);
    expect(empty.length).toBeGreaterThan(20);
    for (const result of empty) expect(result.regions).toEqual([]);

    // Walking in: motion in every frame of the second after entering.
    const [, entered] = truth.people[0]!.enters_s;
    for (const result of at(entered + 0.4, entered + 1.4)) {
      expect(result.regions.length).toBeGreaterThan(0);
      expect(result.moving).toBeGreaterThan(0.01);
    }
    // Walking out across the right edge: a region reaching past the counting line at x = 0.75.
    const [crossFrom, crossTo] = truth.people[0]!.crosses_V75_s;
    const leaving = at(crossFrom, crossTo + 0.5);
    expect(leaving.some((result) => result.regions.some((region) => region.x + region.w > 0.75))).toBe(true);
    for (const result of leaving) expect(result.regions.length).toBeGreaterThan(0);
  });
});

/** The motion results of the clip's first `seconds`, one per frame at `fps`, 640 px wide (as the frame source decodes). */
function motionOverClip(video: string, fps: number, seconds: number): Promise<MotionResult[]> {
  const motion = createMotionDetector();
  const width = 640;
  const height = 360;
  const bytes = width * height * 3;
  const results: MotionResult[] = [];
  const child = spawn(
    "/usr/bin/ffmpeg",
    ["-v", "error", "-t", String(seconds), "-i", video, "-vf", `fps=${fps},scale=${width}:${height}:flags=area`, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let pending = Buffer.alloc(0);
  child.stdout.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= bytes) {
      results.push(motion.update({ width, height, rgb: new Uint8Array(pending.subarray(0, bytes)), at: 0 }));
      pending = pending.subarray(bytes);
    }
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(results) : reject(new Error(`ffmpeg exited with ${code}`))));
  });
}
