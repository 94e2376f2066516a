// Constants of the image core shared by the WASM wrapper, the TS reference, the worker and the UI.

/** Histogram analysis frame (the preview is downscaled to this before binning). */
export const HISTOGRAM_FRAME_WIDTH = 192;
export const HISTOGRAM_FRAME_HEIGHT = 108;
export const HISTOGRAM_BINS = 256;

/** Zebra masks are computed on a frame downscaled to this width. */
export const ZEBRA_WORKING_WIDTH = 320;
export const ZEBRA_DEFAULT_HIGH = 230;
/** 0 means "low zebra off": the low side is active only above 0. */
export const ZEBRA_DEFAULT_LOW = 0;
export const ZEBRA_DEFAULT_OPACITY = 0.75;
/** Stripe period of the CPU overlay in working-width pixels (half striped, half clear). */
export const ZEBRA_DEFAULT_STRIPE_PERIOD = 6;
/** Over-exposure stripes are white, under-exposure stripes a saturated blue, as on most monitors. */
export const ZEBRA_HIGH_RGB = [255, 255, 255] as const;
export const ZEBRA_LOW_RGB = [40, 120, 255] as const;
/** Mask bits: 1 = at or above the high threshold, 2 = at or below the low one. */
export const ZEBRA_MASK_HIGH = 1;
export const ZEBRA_MASK_LOW = 2;

/**
 * Rec. 709 luma weights 0.2126/0.7152/0.0722 as 16-bit fixed point (they sum to exactly 65536), so
 * luma is an exact integer 0..255 in WASM and in TS alike. Mirrors assembly/luma.ts.
 */
export const LUMA_WEIGHTS_FIXED = [13933, 46871, 4732] as const;

export const LUT_DEFAULT_INTENSITY = 1;
export const LUT_DEFAULT_SIZE = 33;
export const LUT_3D_MIN_SIZE = 2;
/** Adobe allows 256, but 64³ is already finer than any grading tool exports by default and keeps a table ≤ 4 MB. */
export const LUT_3D_MAX_SIZE = 64;
export const LUT_1D_MIN_SIZE = 2;
/** The Adobe spec's 1D range (65536 entries = one per 16-bit code value). */
export const LUT_1D_MAX_SIZE = 65536;
/** LUT outputs are clamped to the half-float range, as the WebGL path's RGBA16F texture stores them. */
export const LUT_OUTPUT_LIMIT = 65504;
/**
 * Longest .cube text the parser accepts, in UTF-16 code units: twice the 8 MB upload limit, and
 * above the largest legitimate file (a verbose 64³ cube is ~10 MB). Longer text fails before any
 * memory is reserved for it.
 */
export const MAX_CUBE_TEXT_LENGTH = 16 * 1024 * 1024;
