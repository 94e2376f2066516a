// The AI switches as commands (data, see ../commands): the AI tab's, the Detections tab's and auto-capture's
// on/off switches, and the Stop buttons of the caption, story and counting overlays. Which modes may run
// together is not decided here but in ./modes.
import type { Command } from "../commands";
import type { AiEngine } from "./ai-engine";

type AiContext = { ai: AiEngine };

function toggle(id: string, label: string, isOn: (ai: AiEngine) => boolean, set: (ai: AiEngine, on: boolean) => void): Command<AiContext> {
  return { id, label, icon: "switch", pressed: ({ ai }) => isOn(ai), perform: ({ ai }) => set(ai, !isOn(ai)) };
}

function stop(id: string, label: string, isOn: (ai: AiEngine) => boolean, end: (ai: AiEngine) => void): Command<AiContext> {
  return { id, label, icon: "stop", enabled: ({ ai }) => isOn(ai), perform: ({ ai }) => end(ai) };
}

export const aiCommands: Command<AiContext>[] = [
  toggle(
    "ai.captions",
    "Enable AI analysis",
    (ai) => ai.captions.isOn(),
    (ai, on) => ai.captions.setEnabled(on),
  ),
  toggle(
    "ai.story",
    "Story Mode",
    (ai) => ai.captions.isStoryOn(),
    (ai, on) => void (on ? ai.captions.startStory() : ai.captions.stopStory()),
  ),
  toggle(
    "ai.counting",
    "People Counting",
    (ai) => ai.counting.isOn(),
    (ai, on) => void (on ? ai.counting.start() : ai.counting.stop()),
  ),
  toggle(
    "ai.counting.local",
    "Count People Locally",
    (ai) => ai.localVision.isCountingPeople(),
    (ai, on) => ai.localVision.setCountingPeople(on),
  ),
  toggle(
    "ai.scoreboard",
    "Scoreboard Mode",
    (ai) => ai.scoreboard.store.get().enabled,
    (ai, on) => ai.scoreboard.setEnabled(on),
  ),
  toggle(
    "detection.box",
    "Enable Box Detection",
    (ai) => ai.detection.store.get().box.enabled,
    (ai, on) => ai.detection.setBoxEnabled(on),
  ),
  toggle(
    "detection.point",
    "Enable Point Detection",
    (ai) => ai.detection.store.get().point.enabled,
    (ai, on) => ai.detection.setPointEnabled(on),
  ),
  toggle(
    "detection.local",
    "Enable Local Detection",
    (ai) => ai.localVision.isOn(),
    (ai, on) => ai.localVision.setEnabled(on),
  ),
  toggle(
    "ai.auto-capture",
    "Auto-capture",
    (ai) => ai.autoCapture.store.get().enabled,
    (ai, on) => ai.autoCapture.setEnabled(on),
  ),
  toggle(
    "assistant.interval",
    "Analyze automatically",
    (ai) => ai.assistant.store.get().intervalMode,
    (ai, on) => ai.assistant.setIntervalMode(on),
  ),
  stop(
    "ai.captions.stop",
    "Stop",
    (ai) => ai.captions.isOn(),
    (ai) => ai.captions.setEnabled(false),
  ),
  stop(
    "ai.story.stop",
    "Stop Story",
    (ai) => ai.captions.isStoryOn(),
    (ai) => void ai.captions.stopStory(),
  ),
  stop(
    "ai.counting.stop",
    "Stop Counting",
    (ai) => ai.counting.isOn(),
    (ai) => void ai.counting.stop(),
  ),
];
