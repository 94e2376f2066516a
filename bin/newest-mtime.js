// The newest modification time under a path of the repository (a file, or a folder walked recursively):
// how the build scripts tell whether their output is stale.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const item of readdirSync(full, { recursive: true, withFileTypes: true })) {
    if (item.isFile()) newest = Math.max(newest, statSync(path.join(item.parentPath, item.name)).mtimeMs);
  }
  return newest;
}
