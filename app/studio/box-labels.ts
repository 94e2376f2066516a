// A box label's sizes and the layout it is drawn with, shared by Moondream's boxes (ai/detection-geometry.ts) and
// local vision's track labels (local-vision/track-labels.ts): here at the root so neither folder imports the other.
import type { Rect } from "./geometry";

export type LabelSize = "small" | "medium" | "large";

/** Label box metrics in CSS pixels before the font multiplier (spec §9 label-size table). */
export const LABEL_SIZES: Record<LabelSize, { font: number; height: number; charWidth: number; padding: number }> = {
  small: { font: 16, height: 28, charWidth: 10, padding: 16 },
  medium: { font: 24, height: 36, charWidth: 14, padding: 24 },
  large: { font: 32, height: 48, charWidth: 19, padding: 32 },
};

export interface LabelLayout {
  /** The label's background rectangle. */
  rect: Rect;
  font: number;
  /** Where the text's left edge and vertical middle are. */
  textX: number;
  textY: number;
}
