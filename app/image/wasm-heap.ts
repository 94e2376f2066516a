// Reusable blocks of the image core's memory: allocated once, grown when a bigger frame arrives,
// so hot paths copy pixels in with `set()` and hand the WASM code pointers, never fresh buffers.
import type { ImageCoreExports } from "./wasm-module";

export class WasmBlock {
  pointer = 0;
  bytes = 0;

  constructor(private readonly heap: WasmHeap) {}

  /** The block's address, with room for at least `bytes` (previous contents are not kept). */
  reserve(bytes: number): number {
    if (bytes <= this.bytes && this.pointer) return this.pointer;
    this.release();
    // Grow by half again so a slowly growing size does not reallocate on every call.
    const size = Math.max(bytes, Math.ceil(this.bytes * 1.5), 64);
    this.pointer = this.heap.alloc(size);
    this.bytes = size;
    return this.pointer;
  }

  release(): void {
    if (this.pointer) this.heap.free(this.pointer);
    this.pointer = 0;
    this.bytes = 0;
  }
}

export class WasmHeap {
  private u8View = new Uint8Array(0);

  constructor(readonly exports: ImageCoreExports) {}

  alloc(bytes: number): number {
    const pointer = this.exports.alloc(bytes) >>> 0;
    if (!pointer) throw new Error("image core: out of memory");
    return pointer;
  }

  free(pointer: number): void {
    this.exports.free(pointer);
  }

  block(): WasmBlock {
    return new WasmBlock(this);
  }

  /** A byte view of the whole memory, renewed after the memory grew (growing detaches old views). */
  get u8(): Uint8Array {
    if (this.u8View.buffer !== this.exports.memory.buffer) this.u8View = new Uint8Array(this.exports.memory.buffer);
    return this.u8View;
  }

  f32(pointer: number, length: number): Float32Array {
    return new Float32Array(this.exports.memory.buffer, pointer, length);
  }

  f64(pointer: number, length: number): Float64Array {
    return new Float64Array(this.exports.memory.buffer, pointer, length);
  }

  u32(pointer: number, length: number): Uint32Array {
    return new Uint32Array(this.exports.memory.buffer, pointer, length);
  }
}
