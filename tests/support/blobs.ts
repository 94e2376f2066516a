// Looks at the shared app's blob directory, to prove what was (or was not) stored.
import { readdirSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

export function blobFilesOf(userId: string): string[] {
  const dir = path.join(inject("dataDir"), "blobs", "users", userId);
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}
