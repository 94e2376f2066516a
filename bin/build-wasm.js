#!/usr/bin/env node
// Compiles the AssemblyScript image core (assembly/ → app/image/wasm/image-core.wasm, git-ignored).
// `npm run build:wasm` always compiles; ensureWasm() (used by ensure-build, the test setups and the
// benchmarks) compiles only when the output is missing or older than its sources.
//
// Options live in assembly/asconfig.json: -O3 with SIMD enabled, and the `minimal` runtime (TLSF
// allocator, no automatic GC) because the core allocates no managed objects: the TS side reserves
// raw blocks with alloc/free and passes pointers. No generated bindings: app/image/wasm-module.ts
// instantiates the module itself (see there why).
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { newestMtime, root } from "./newest-mtime.js";

const OUTPUT = path.join(root, "app/image/wasm/image-core.wasm");
const SOURCES = ["assembly", "package-lock.json"];

export function buildWasm() {
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/assemblyscript/bin/asc.js"), "--config", "assembly/asconfig.json", "--target", "release"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("WASM build failed");
    process.exit(result.status ?? 1);
  }
}

export function ensureWasm() {
  const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
  if (built > Math.max(...SOURCES.map(newestMtime))) return;
  console.log(built ? "Image core sources changed; rebuilding the WASM…" : "Building the WASM image core…");
  buildWasm();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildWasm();
