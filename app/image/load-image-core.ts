// Loads the image core wherever Vite builds or runs the code: the browser (worker) fetches the
// hashed .wasm asset and compiles it while streaming (WebAssembly.instantiateStreaming), the server
// bundle, `npm run dev` and Vitest read the .wasm file from disk. Vite's `?init` import does both.
// Plain Node tools without Vite (benchmarks, Playwright's own process) use createImageCore with
// the file's bytes instead: see tests/support/image-core.ts.
import initImageCoreWasm from "./wasm/image-core.wasm?init";
import { createImageCore, type ImageCore } from "./core";

let shared: Promise<ImageCore> | undefined;
/** Texts longer than this (a 65³ cube is ~7 M characters) are parsed by a core of their own. */
const OWN_CORE_TEXT_LENGTH = 16 * 1024 * 1024;

/** The process-wide image core, instantiated on first use (parsing is synchronous after that). */
export function loadImageCore(): Promise<ImageCore> {
  shared ??= createImageCore(initImageCoreWasm).catch((error: unknown) => {
    shared = undefined; // let a later call retry
    throw error;
  });
  return shared;
}

/**
 * The core to parse a text of `length` characters with: the shared one, or for a big file (a 129³
 * cube takes ~90 MB of WASM memory to parse) a core of its own, whose memory is freed with it: a
 * WASM memory never shrinks, so the shared core would keep that size for good.
 */
export function imageCoreForParsing(length: number): Promise<ImageCore> {
  return length > OWN_CORE_TEXT_LENGTH ? createImageCore(initImageCoreWasm) : loadImageCore();
}
