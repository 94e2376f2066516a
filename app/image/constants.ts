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
/**
 * The largest 3D cube, in every layer (WASM parser and grading, WebGL, server upload; mirrored in
 * assembly/cube-parser.ts). Adobe allows 256, but a 256³ file is ~450 MB of text and needs over 1 GB
 * of WASM memory to parse and prepare (text, 201 MB of rows, a 268 MB graded table), more than a
 * phone gives a tab. 129³ (OCIO's limit too) is ~60 MB of text, a 34 MB prepared table and a 17 MB
 * RGBA16F texture (WebGL2 guarantees 3D textures of 256), and covers Resolve's 65³ and 129³ exports.
 */
export const LUT_3D_MAX_SIZE = 129;
export const LUT_1D_MIN_SIZE = 2;
/** The Adobe spec's 1D range (65536 entries = one per 16-bit code value); also the limit of a Resolve shaper. */
export const LUT_1D_MAX_SIZE = 65536;
/** LUT outputs are clamped to the half-float range, as the WebGL path's RGBA16F texture stores them. */
export const LUT_OUTPUT_LIMIT = 65504;
/**
 * Longest .cube text the parser (and the upload) accepts, in UTF-16 code units: 40 characters a row
 * (three values of ten decimals and CRLF; Resolve writes 27) for the largest cube behind the largest
 * shaper, plus 1 MiB of header and comments (~90 M). Longer text fails before any memory is reserved
 * for it, naming the cube's size when that is what is too large.
 */
export const MAX_CUBE_TEXT_LENGTH = (LUT_3D_MAX_SIZE ** 3 + LUT_1D_MAX_SIZE) * 40 + 1024 * 1024;
