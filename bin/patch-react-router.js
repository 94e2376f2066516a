#!/usr/bin/env node
// @react-router/dev 7.18 configures its internal Vite servers with `envFile: false`, which Vite 8.1+ deprecates
// with a warning printed several times on every build, dev start and typegen. Vite maps it to `envDir: false`,
// which this replaces it with (same behaviour, no warning): the upstream fix, remix-run/react-router#15230, shipped
// in React Router 8 only. Idempotent; runs after `npm ci` (postinstall) and before every start, build and test
// (bin/ensure-build.js). Drop it with the move to React Router 8.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FILES = ["dist/vite.js", "dist/cli/index.js", "dist/vite/cloudflare.js"];

export function patchReactRouter() {
  for (const file of FILES) {
    const target = path.join(root, "node_modules/@react-router/dev", file);
    if (!existsSync(target)) continue;
    const source = readFileSync(target, "utf8");
    if (!source.includes("envFile: false")) continue;
    try {
      writeFileSync(target, source.replaceAll("envFile: false", "envDir: false"));
    } catch (error) {
      console.warn(`bin/patch-react-router.js: could not patch ${file} (${error.code ?? error}); Vite warns that envFile is deprecated`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) patchReactRouter();
