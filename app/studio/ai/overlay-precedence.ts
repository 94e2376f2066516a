// Which caption-family overlay the preview shows (spec §2): people counting over story mode over the
// plain caption — one at a time, so they never stack over the picture.
export type CaptionOverlayKind = "counting" | "story" | "caption";

export function captionOverlayKind(state: { counting: boolean; story: boolean; aiEnabled: boolean }): CaptionOverlayKind | null {
  if (state.counting) return "counting";
  if (state.story) return "story";
  if (state.aiEnabled) return "caption";
  return null;
}
