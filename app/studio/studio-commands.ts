// The studio's own commands (data, see ./commands): fullscreen, the grid, the dialogs and capture. PTZ and AI
// commands live beside their controllers (ptz/ptz-commands, ai/ai-commands).
import type { Command } from "./commands";
import type { CaptureController } from "./capture/capture";
import type { StudioView } from "./view";

type ViewContext = { view: StudioView };
type CaptureContext = { capture: CaptureController };

export const viewCommands: Command<ViewContext>[] = [
  {
    id: "fullscreen",
    label: "Fullscreen (F)",
    icon: "fullscreen",
    hotkeys: ["f", "F"],
    shortcut: { keys: "F", description: "Toggle fullscreen" },
    perform: ({ view }) => view.toggleFullscreen(),
  },
  {
    id: "grid",
    label: "Rule of thirds",
    icon: "grid",
    pressed: ({ view }) => view.store.get().showGrid,
    perform: ({ view }) => view.toggleGrid(),
  },
  {
    id: "feature-request",
    label: "Feature Request",
    icon: "lightbulb",
    perform: ({ view }) => view.openDialog("feature-request"),
  },
];

/** Registered last, so "?" ends the help list. */
export const helpCommand: Command<ViewContext> = {
  id: "help",
  label: "Help (?)",
  icon: "help",
  hotkeys: ["?"],
  shortcut: { keys: "?", description: "Show this help" },
  perform: ({ view }) => view.openDialog("help"),
};

export const captureCommands: Command<CaptureContext>[] = [
  {
    id: "capture",
    label: "Capture",
    icon: "camera",
    enabled: ({ capture }) => !capture.store.get().progress?.running,
    perform: ({ capture }) => capture.capture(),
  },
  {
    id: "capture.stop",
    label: "Stop",
    icon: "stop",
    enabled: ({ capture }) => Boolean(capture.store.get().progress?.running),
    perform: ({ capture }) => capture.stopCapture(),
  },
];
