// The image core for plain Node processes that Vite does not transform (benchmarks, Playwright's
// test process): the same .wasm file, read from disk. Builds it first when missing or stale.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ensureWasm } from "../../bin/build-wasm.js";
import { createImageCore, type ImageCore } from "#app/image/core";
const ROOT = path.resolve(import.meta.dirname, "../..");

export const IMAGE_CORE_WASM = path.join(ROOT, "app/image/wasm/image-core.wasm");

export function loadImageCoreFromFile(): Promise<ImageCore> {
  ensureWasm();
  return createImageCore(readFileSync(IMAGE_CORE_WASM));
}
