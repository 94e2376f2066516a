// Counting through the server's pipeline against the accuracy benchmark's way on the same footage (issue 30): the
// real clip (../shared/data/real, six people crossing x = 0.75 left to right once each per 139.4 s pass)
// - offline, as `npm run bench -- accuracy` counts: every frame at 5 frames/s and 640 px, decoded from the file, the
//   same detector (the pool's thread, built-in model) on the whole frame, the studio's scene (tracker + line);
// - live, as a watched camera counts: the fake IP camera plays the clip over RTSP, the production app decodes,
//   looks for motion, detects, tracks and counts, and the line.crossed webhooks are matched to the truth by time.
// Target: the live count within 2 % of the offline one.
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { LineDefinition } from "#app/studio/local-vision/lines";
import { createScene } from "#app/studio/local-vision/scene";
import { TRACKER_MIN_SCORE } from "#app/studio/local-vision/tracker";
import { createDetectorPool } from "#server/local-detector/pool/detector-pool";
import { REAL_CLIP, realDataFile } from "../tests/support/real-data";
import { decodeClip, STUDIO_LONG_EDGE } from "./accuracy-detect";
import { scorePass, type ClipTruth, type CrossingEvent, type PassScore } from "./accuracy-score";

export const COUNT_LINE: LineDefinition = { id: "V75", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] };
export const CLIP_MS = 139_400;

export function clipTruth(): ClipTruth {
  return JSON.parse(readFileSync(realDataFile(REAL_CLIP.replace(/\.mp4$/, ".gt.json")), "utf8")) as ClipTruth;
}

/** Crossings the truth has per pass (left to right). */
export const truthPerPass = (truth: ClipTruth) => truth.lines.V75!.counts.left_to_right;

/** Right crossings (a person's, in time) out of the truth's: the figure both ways are compared on. */
export const correctShare = (score: PassScore, truth: ClipTruth) => (truthPerPass(truth) - score.missed) / truthPerPass(truth);

/** One pass of the clip counted the accuracy benchmark's way, with the server's detector. */
export async function countOffline(truth: ClipTruth): Promise<PassScore> {
  const clip = decodeClip(path.resolve(realDataFile(REAL_CLIP)));
  const pool = createDetectorPool({ size: 1, model: { kind: "built-in" } });
  try {
    await pool.ready();
    const scene = createScene({ lines: [COUNT_LINE] });
    const events: CrossingEvent[] = [];
    for (const { file, frame: at } of clip.files) {
      const { data, info } = await sharp(file).resize({ width: STUDIO_LONG_EDGE }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const answer = await pool.detect({
        cameraId: "offline",
        frame: { width: info.width, height: info.height, rgb: new Uint8Array(data) },
        minScore: TRACKER_MIN_SCORE,
        regions: [],
      });
      if (answer === "busy") throw new Error("one camera, one request at a time: never busy");
      const people = answer.detections.filter((d) => d.label === "person" && d.score >= TRACKER_MIN_SCORE);
      for (const event of scene.step(people, at).events) if (event.type === "line.crossed") events.push({ at: event.at, direction: event.direction });
    }
    return scorePass(events, truth, 0);
  } finally {
    clip.cleanup();
    await pool.close();
  }
}
