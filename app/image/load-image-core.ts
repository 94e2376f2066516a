// Loads the image core wherever Vite builds or runs the code: the browser (worker) fetches the
// hashed .wasm asset and compiles it while streaming (WebAssembly.instantiateStreaming), the server
// bundle, `npm run dev` and Vitest read the .wasm file from disk. Vite's `?init` import does both.
// Plain Node tools without Vite (benchmarks, Playwright's own process) use createImageCore with
// the file's bytes instead: see tests/support/image-core.ts.
import initImageCoreWasm from "./wasm/image-core.wasm?init";
import { createImageCore, type ImageCore } from "./core";

let shared: Promise<ImageCore> | undefined;

/** The process-wide image core, instantiated on first use (parsing is synchronous after that). */
export function loadImageCore(): Promise<ImageCore> {
  shared ??= createImageCore(initImageCoreWasm).catch((error: unknown) => {
    shared = undefined; // let a later call retry
    throw error;
  });
  return shared;
}
