// Builds the image-core harness page with Vite (as production code is bundled: module worker,
// hashed .wasm asset) and serves it from a throwaway static server for browser tests.
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { build } from "vite";
import { ensureWasm } from "../../bin/build-wasm.js";

const HARNESS_ROOT = path.join(import.meta.dirname, "image-core-harness");
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};

export interface Harness {
  url: string;
  close(): Promise<void>;
}

export async function startImageCoreHarness(): Promise<Harness> {
  ensureWasm();
  const outDir = mkdtempSync(path.join(os.tmpdir(), "framewise-image-harness-"));
  await build({
    configFile: false,
    root: HARNESS_ROOT,
    logLevel: "error",
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
