// The visual overlays' switches as commands (data, see ../commands): LUT colour grading, histogram, zebra.
import type { Command } from "../commands";
import type { OverlaySettings } from "../../image/overlay-settings";
import type { OverlayController } from "./overlays";

type OverlayContext = { overlays: OverlayController };
type Switch = "lutEnabled" | "histogramEnabled" | "zebraEnabled";

function toggle(id: string, label: string, key: Switch): Command<OverlayContext> {
  return {
    id,
    label,
    icon: "switch",
    pressed: ({ overlays }) => overlays.store.get().settings[key],
    perform: ({ overlays }) => overlays.update({ [key]: !overlays.store.get().settings[key] } as Partial<OverlaySettings>),
  };
}

export const overlayCommands: Command<OverlayContext>[] = [
  toggle("overlays.lut", "LUT colour grading", "lutEnabled"),
  toggle("overlays.histogram", "Histogram", "histogramEnabled"),
  toggle("overlays.zebra", "Zebra", "zebraEnabled"),
];
