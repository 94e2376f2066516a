// Builds a harness page with Vite (as production code is bundled: module worker, hashed .wasm and model
// assets) and serves it from a throwaway static server for browser tests: the image core's, the local detector's.
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { build } from "vite";
import { localVisionAliases } from "#app/studio/local-vision/vite-alias";
import { ensureWasm } from "../../bin/build-wasm.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};

export interface Harness {
  url: string;
  close(): Promise<void>;
}

export function startImageCoreHarness(): Promise<Harness> {
  ensureWasm();
  return startViteHarness("image-core-harness");
}

/** Builds `tests/e2e/<name>/index.html` with the app's aliases and serves the result on 127.0.0.1. */
export async function startViteHarness(name: string): Promise<Harness> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), `framewise-${name}-`));
  await build({
    configFile: false,
    root: path.join(import.meta.dirname, name),
    logLevel: "error",
    resolve: { alias: localVisionAliases },
    build: { outDir, emptyOutDir: true, target: "es2022" },
    worker: { format: "es" },
  });
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    const file = path.join(outDir, pathname === "/" ? "index.html" : path.normalize(pathname));
    if (!file.startsWith(outDir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
