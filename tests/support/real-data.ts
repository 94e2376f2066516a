// The real test material (../shared/data/real beside the checkout, see its README; never copied into the repository):
// COCO photos with ground truth and a real indoor clip. From a git worktree it is also looked for beside the main checkout.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

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
  if (!dir) throw new Error("The real test material (../shared/data/real, see its README) is not beside this checkout");
  return path.join(dir, relative);
}
