// Everything the AI draws over the picture (inside the preview's picture rectangle, so positions in
// 0–1 of the frame map straight to the element), bottom to top: detections, zones and lines, scoreboard,
// caption / story / counting, and the camera assistant's advice.
import { AssistantOverlay } from "./assistant-overlay";
import { CaptionOverlays } from "./caption-overlays";
import { DetectionOverlay } from "./detection-overlay";
import { LocalPeopleCount } from "./local-people-count";
import { RegionsOverlay } from "./regions-overlay";
import { ScoreboardOverlay } from "./scoreboard-overlay";

export function AiOverlays() {
  return (
    <>
      <DetectionOverlay />
      <RegionsOverlay />
      <LocalPeopleCount />
      <ScoreboardOverlay />
      <CaptionOverlays />
      <AssistantOverlay />
    </>
  );
}
