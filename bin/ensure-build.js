#!/usr/bin/env node
// Builds the production bundle when it is missing or older than any source file, so `npm start`
// works right after `npm ci` and never serves stale code. The WASM image core comes first: the
// bundle embeds it as an asset.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { newestMtime, root } from "./newest-mtime.js";
import { ensureWasm } from "./build-wasm.js";

const SOURCES = ["app", "server", "db", "assembly", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
const STAMP = path.join(root, "build/server/index.js");

export function ensureBuild() {
  ensureWasm();
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const newestSource = Math.max(...SOURCES.map(newestMtime));
  if (built > newestSource) return;
  console.log(built ? "Sources changed since the last build; rebuilding…" : "Building Framewise (first start)…");
  // Warnings and errors only: the list of emitted files (`npm run build` shows it) tells someone starting the app nothing.
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("Build failed");
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureBuild();
