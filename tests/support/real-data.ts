// The real test material (`../shared/data/real`: photos and footage with their ground truth, see its README), found
// beside the checkout, or from a git worktree beside the main checkout. Never copied into the repository.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/** The footage of six people walking through a room one at a time (768×432, 10 fps, 139.4 s), with its `.gt.json`. */
export const PEOPLE_CLIP = "video/one-by-one-person-detection.mp4";

/** The directory holding the real material, or null when it is not beside this checkout. */
export function realDataDir(): string | null {
  const root = path.resolve(import.meta.dirname, "../..");
  const candidates = [path.join(root, "../shared/data/real")];
  try {
    const common = execFileSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: root, encoding: "utf8" }).trim();
    candidates.push(path.join(path.dirname(common), "../shared/data/real"));
  } catch {
    // not a git checkout: only the first place
  }
  return candidates.find((dir) => existsSync(path.join(dir, PEOPLE_CLIP))) ?? null;
}

/** A file of the real material, for a test: throws (the test fails, it is not skipped) when the material is missing. */
export function realDataFile(relative: string): string {
  const dir = realDataDir();
  if (!dir) throw new Error(`the real test material (../shared/data/real beside the checkout, see its README) is missing: ${relative} is needed`);
  const file = path.join(dir, relative);
  if (!existsSync(file)) throw new Error(`${file} is missing from the real test material`);
  return file;
}
