#!/usr/bin/env node
// Builds the production bundle when it is missing or older than any source file, so `npm start`
// works right after `npm ci` and never serves stale code. The WASM image core comes first: the
// bundle embeds it as an asset.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWasm } from "./build-wasm.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["app", "server", "db", "assembly", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
const STAMP = path.join(root, "build/server/index.js");

function newestMtime(entry) {
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

export function ensureBuild() {
  ensureWasm();
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const newestSource = Math.max(...SOURCES.map(newestMtime));
  if (built > newestSource) return;
  console.log(built ? "Sources changed since the last build; rebuilding…" : "Building Framewise (first start)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("Build failed");
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureBuild();
