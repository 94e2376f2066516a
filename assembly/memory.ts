// Raw buffers for the TS side: frames, LUT tables, text and results live in blocks it allocates
// once and reuses (TLSF through heap.alloc), so hot paths only take pointers.
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

export function free(pointer: usize): void {
  heap.free(pointer);
}
