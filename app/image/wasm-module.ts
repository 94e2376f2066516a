// Instantiates the AssemblyScript image core (assembly/, built to app/image/wasm/image-core.wasm)
// without asc's generated bindings: every export takes and returns plain numbers (pointers into
// its memory), so the bindings' lifting and lowering would add nothing, while their top-level
// await is exactly what stalls Comlink in a worker (see stack-notes). The host supplies two
// imports: `abort` and `Math.log` (the histogram's log scale, identical to the TS reference's).

export interface ImageCoreExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(pointer: number): void;
  parseCube(text: number, length: number, out: number, capacityRows: number, result: number): void;
  /** Returns 1 when no entry is too large for the kernel's rounding trick (grading may then skip clamping). */
  /** `inputs`: a shaper's outputs from prepareShaper, or 0. */
  prepareLut3d(data: number, size: number, minR: number, minG: number, minB: number, maxR: number, maxG: number, maxB: number, table: number, inputs: number): number;
  applyLut3d(src: number, dst: number, pixels: number, table: number, size: number, intensity: number, clamp: number): void;
  mixLut3d(source: number, size: number, intensity: number, minR: number, minG: number, minB: number, maxR: number, maxG: number, maxB: number, target: number): number;
  prepareLut1d(data: number, size: number, minR: number, minG: number, minB: number, maxR: number, maxG: number, maxB: number, table: number): void;
  applyLut1d(src: number, dst: number, pixels: number, table: number, intensity: number): void;
  prepareShaper(data: number, size: number, minR: number, minG: number, minB: number, maxR: number, maxG: number, maxB: number, out: number): void;
  histogram(src: number, pixels: number, rgb: number, counts: number): void;
  histogramLevels(counts: number, bins: number, logScale: number, levels: number): void;
  zebraMask(src: number, pixels: number, high: number, low: number, out: number): void;
  zebraOverlay(mask: number, width: number, height: number, period: number, phase: number, highColour: number, lowColour: number, out: number): void;
  MIN_3D_SIZE: WebAssembly.Global;
  MAX_3D_SIZE: WebAssembly.Global;
  MIN_1D_SIZE: WebAssembly.Global;
  MAX_1D_SIZE: WebAssembly.Global;
  DEFAULT_3D_SIZE: WebAssembly.Global;
  RESULT_SLOTS: WebAssembly.Global;
  LUT3D_HEADER_BYTES: WebAssembly.Global;
  LUT1D_TABLE_BYTES: WebAssembly.Global;
  SHAPER_INPUTS_BYTES: WebAssembly.Global;
}

/**
 * What the image core can be instantiated from: the .wasm bytes, a compiled module, or a function
 * that instantiates it with the given imports (e.g. Vite's `?init` import).
 */
export type ImageCoreSource = BufferSource | WebAssembly.Module | ((imports: WebAssembly.Imports) => Promise<WebAssembly.Instance>);

/** AssemblyScript strings are UTF-16 with their byte length in the 4 bytes before them. */
function readAsString(memory: WebAssembly.Memory, pointer: number): string {
  if (!pointer) return "";
  const bytes = new Uint32Array(memory.buffer, pointer - 4, 1)[0] ?? 0;
  return new TextDecoder("utf-16le").decode(new Uint8Array(memory.buffer, pointer, bytes));
}

export async function instantiateImageCore(source: ImageCoreSource): Promise<ImageCoreExports> {
  const instantiated: { memory?: WebAssembly.Memory } = {}; // abort() can only run after instantiation
  const imports: WebAssembly.Imports = {
    env: {
      abort(message: number, file: number, line: number, column: number) {
        const { memory } = instantiated;
        const text = memory ? `${readAsString(memory, message)} at ${readAsString(memory, file)}:${line}:${column}` : "unknown";
        throw new Error(`image core aborted: ${text}`);
      },
      "Math.log": Math.log,
    },
  };
  let instance: WebAssembly.Instance;
  if (typeof source === "function") instance = await source(imports);
  else if (source instanceof WebAssembly.Module) instance = await WebAssembly.instantiate(source, imports);
  else instance = (await WebAssembly.instantiate(source, imports)).instance;
  const exports = instance.exports as unknown as ImageCoreExports;
  instantiated.memory = exports.memory;
  return exports;
}
