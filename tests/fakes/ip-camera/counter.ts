// A frame counter burned into the picture as a row of black/white blocks (bit i = block i, least significant
// first, white = 1) so a latency benchmark can read which frame it decoded from pixels alone; ffmpeg drawbox
// with per-frame `enable` expressions draws it (cheap, and needs no fonts, unlike drawtext).
export const COUNTER_BITS = 20;

/** Block size for a picture width: 32×16 px at 1280×720, 16×8 at 640×360 (large enough to survive compression). */
export const counterBlock = (width: number) => ({ w: Math.floor(width / 40), h: Math.max(8, Math.floor(width / 80)) });

/** The ffmpeg filter chain that draws `offset + n` (n = the output frame number) in the top-left corner. */
export function counterFilter(width: number, offset: number): string {
  const { w, h } = counterBlock(width);
  const boxes = [`drawbox=x=0:y=0:w=${w * COUNTER_BITS}:h=${h}:color=black:t=fill`];
  for (let bit = 0; bit < COUNTER_BITS; bit++) {
    boxes.push(`drawbox=x=${bit * w}:y=0:w=${w}:h=${h}:color=white:t=fill:enable='mod(floor((n+${offset})/${2 ** bit}),2)'`);
  }
  return boxes.join(",");
}

/** Reads the counter back from RGB(A) pixels (`channels` bytes per pixel), sampling the middle of each block. */
export function readCounter(pixels: Uint8Array | Uint8ClampedArray, width: number, channels = 4): number {
  const { w, h } = counterBlock(width);
  let value = 0;
  for (let bit = 0; bit < COUNTER_BITS; bit++) {
    const i = (Math.floor(h / 2) * width + bit * w + Math.floor(w / 2)) * channels;
    const luma = (pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) / 3;
    if (luma > 128) value += 2 ** bit;
  }
  return value;
}
