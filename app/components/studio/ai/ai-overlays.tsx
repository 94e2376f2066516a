// Everything the AI draws over the picture (inside the preview's picture rectangle, so positions in
// 0–1 of the frame map straight to the element): caption / story / counting, scoreboard, detections.
import { AssistantOverlay } from "./assistant-overlay";
import { DetectionOverlay } from "./detection-overlay";

export function AiOverlays() {
  return (
    <>
      <DetectionOverlay />
      <AssistantOverlay />
    </>
  );
}
