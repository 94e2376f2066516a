// A detector as the server's detector threads hold it: loaded once, then run on decoded frames one after another.
import type { LocalDetection } from "#app/studio/local-vision/detector-types";

/** A decoded picture: packed RGB, 3 bytes a pixel, rows top to bottom (server/local-vision/pipeline/types.ts's RawFrame). */
export interface RgbPicture {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export interface FrameDetector {
  /** The classes it answers. */
  labels: readonly string[];
  /** The model input's width over its height (1 for a square input): crops are cut to this shape. */
  inputAspect: number;
  /** Candidates scoring at least `minScore`, boxes as fractions of the picture; not yet suppressed (they may overlap). */
  detect(picture: RgbPicture, minScore: number): Promise<LocalDetection[]>;
  close(): Promise<void>;
}
