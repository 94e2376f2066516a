// The real test material (../shared/data/real beside the checkout, see its README; never copied into the repository):
// COCO photos with ground truth and a real indoor clip. From a git worktree it is also looked for beside the main checkout.
import { execFileSync } from "node:child_process";
import { existsSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FFMPEG } from "../fakes/ip-camera/source";
import { runFfmpeg } from "../fakes/ipcam/ffmpeg-fixtures";

export const REAL_CLIP = "video/one-by-one-person-detection.mp4";

/** The folder, or null when it is not beside this checkout. */
export function realDataDir(): string | null {
  const root = path.resolve(import.meta.dirname, "../..");
  const candidates = [path.join(root, "../shared/data/real")];
  try {
    const common = execFileSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: root, encoding: "utf8" }).trim();
    candidates.push(path.join(path.dirname(common), "../shared/data/real"));
  } catch {
    // not a git checkout: only the first place
  }
  return candidates.find((dir) => existsSync(path.join(dir, REAL_CLIP))) ?? null;
}

/** A file of the material; throws (naming where it was looked for) when the material is not there. */
export function realDataFile(relative: string): string {
  const dir = realDataDir();
  if (!dir) throw new Error(`the real test material (../shared/data/real beside the checkout, see its README) is missing: ${relative} is needed`);
  const file = path.join(dir, relative);
  if (!existsSync(file)) throw new Error(`${file} is missing from the real test material`);
  return file;
}

/**
 * One person's walk from the real clip, for a camera that plays it in a loop: 72–89 s, the room empty at both ends
 * (person 3 gone by 70 s, person 5 in at 91 s); person 4 enters at 74–75 s, stands at the table, and crosses the
 * vertical line x = 0.75 left to right at 85.5–86 s (13.5–14 s into the cut): one crossing per pass. Made once per
 * machine (H.264, 768×432, 10 fps, a keyframe a second, as the original).
 */
export const PERSON_CROSSING = { startS: 72, durationS: 17, crossesAtS: [13.5, 14] as const };

export async function personCrossingClip(): Promise<string> {
  const file = path.join(os.tmpdir(), "framewise-person-crossing-72-89.mp4");
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.mp4`;
  await runFfmpeg(FFMPEG, [
    ...["-ss", String(PERSON_CROSSING.startS), "-t", String(PERSON_CROSSING.durationS), "-i", realDataFile(REAL_CLIP)],
    ...["-an", "-c:v", "libx264", "-preset", "veryfast", "-g", "10", "-pix_fmt", "yuv420p", "-f", "mp4", partial],
  ]);
  renameSync(partial, file);
  return file;
}
