// A fake-webcam video of real people moving across the frame, for the local detector's browser test and
// benchmark: the strip of sample photos @vladmandic/human ships (assets/samples.jpg, its top row: people
// standing, sitting, in groups), scaled to 360 px high and panned right to left under a 640×360 window.
import { existsSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { resolveFfmpeg } from "#server/cameras/stream/ffmpeg-binary";
import { runFfmpeg } from "../fakes/ipcam/ffmpeg-fixtures";

const SAMPLES = path.join(path.dirname(path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human"))), "assets", "samples.jpg");

/** Where peopleVideoY4m() writes: known before it runs, for a browser's launch flags. */
export const PEOPLE_VIDEO_FILE = path.join(os.tmpdir(), "framewise-people-pan-640x360.y4m");

/** Writes (once per machine) and returns a 640×360 10 fps Y4M, 8 s long, panning at 280 px/s. */
export async function peopleVideoY4m(): Promise<string> {
  const file = PEOPLE_VIDEO_FILE;
  if (existsSync(file)) return file;
  const ffmpeg = await resolveFfmpeg({ searchPath: process.env.PATH, dataDir: os.tmpdir() });
  if (!ffmpeg.ok) throw new Error(ffmpeg.reason);
  const partial = `${file}.${process.pid}.partial.y4m`;
  await runFfmpeg(ffmpeg.binary.path, [
    ...["-loop", "1", "-framerate", "10", "-i", SAMPLES],
    ...["-vf", "crop=1280:160:0:0,scale=-2:360,crop=640:360:x='min(t*280\\,iw-640)':y=0,format=yuv420p"],
    ...["-t", "8", "-f", "yuv4mpegpipe", partial],
  ]);
  renameSync(partial, file);
  return file;
}
