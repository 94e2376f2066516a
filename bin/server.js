#!/usr/bin/env node
// Starts Framewise: the production build (built on demand), or with --dev, Vite in middleware mode.
import cluster from "node:cluster";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureWasm } from "./build-wasm.js";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A start-up failure the person starting the app can fix (e.g. EmbeddedPostgresError) is one sentence, not a stack. */
async function run(main) {
  try {
    await main();
  } catch (error) {
    if (error?.name !== "EmbeddedPostgresError") throw error;
    console.error(error.message);
    process.exit(1);
  }
}

if (process.argv.includes("--dev")) {
  ensureWasm();
  const { createServer } = await import("vite");
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: "custom" });
  const app = await vite.ssrLoadModule("./server/app.ts");
  await run(() => app.main({ vite }));
} else {
  // React and friends pick their fast production builds from NODE_ENV, read when they are first imported.
  process.env.NODE_ENV ??= "production";
  // A worker process (WEB_CONCURRENCY > 1, server/cluster.ts) runs the build its primary checked.
  if (cluster.isPrimary) ensureBuild();
  const app = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
  await run(() => app.main());
}
