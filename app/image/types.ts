// Public types of the image core, shared by the in-process API, the worker and the reference.

export type Rgb = [number, number, number];

/** A 1D table applied before a 3D one (Resolve's shaper files): its output is the cube's input. */
export interface LutShaper {
  size: number;
  domainMin: Rgb;
  domainMax: Rgb;
  /** size × 3 floats. */
  data: Float32Array;
}

/** A parsed .cube LUT. `data` holds RGB triples, red fastest: size³ × 3 floats (3D) or size × 3 (1D). */
export interface ParsedLut {
  name: string;
  size: number;
  kind: "3d" | "1d";
  domainMin: Rgb;
  domainMax: Rgb;
  data: Float32Array;
  /** Only on 3D LUTs: the 1D shaper of a Resolve shaper file. */
  shaper?: LutShaper;
}

/** RGBA8 pixels, as in ImageData.data. */
export type PixelBuffer = Uint8ClampedArray | Uint8Array;

export type HistogramMode = "luma" | "rgb";

export interface HistogramOptions {
  mode: HistogramMode;
  /** Heights on a log scale: ln(1 + count) / ln(1 + max). */
  log?: boolean;
}

export interface Histogram {
  mode: HistogramMode;
  /** 256 counts (luma) or 768 (red, green, blue bins one after the other). */
  counts: Uint32Array;
  /** Bar heights 0..1, all scaled by the largest count so channels stay comparable. */
  levels: Float32Array;
  /** The largest count. */
  max: number;
}

export type ZebraMode = "high" | "low" | "both";

export interface ZebraOptions {
  mode: ZebraMode;
  /** 0..255: luma at or above it is over-exposed (default 230). */
  high?: number;
  /** 0..255: luma at or below it is under-exposed; 0 turns the low side off (default 0). */
  low?: number;
}

export interface ZebraOverlayOptions extends ZebraOptions {
  /** Frame width in pixels (the height follows from the buffer length). */
  width: number;
  /** 0..1, default 0.75. */
  opacity?: number;
  /** Stripe offset in pixels; advance it each tick to make the stripes march. */
  phase?: number;
  /** Stripe period in pixels, ≥ 2 (default 6). */
  period?: number;
}
