// The classes and texts of every state the marketing page script (./page-script) switches between. The
// components render each widget's first state from these same values, so the server's HTML and the
// script's later states never drift apart. No React here: the page script bundles this file.
import type { DemoPhase } from "./demo-timeline";

/** Classes for an element's on and off state. */
export type ClassPair = readonly [on: string, off: string];

export function pick(pair: ClassPair, on: boolean): string {
  return on ? pair[0] : pair[1];
}

/** Content that animation reveals later: hidden from view and from assistive technology until shown. */
export const STAGED: ClassPair = ["", "invisible opacity-0"];

export function stagedClass(shown: boolean): string {
  return pick(STAGED, shown);
}

export const SLIDE_IMAGE: ClassPair = ["opacity-100", "opacity-0"];
export const SLIDE_CAPTION: ClassPair = ["visible opacity-100", "invisible opacity-0"];
export const SLIDE_DOT: ClassPair = ["w-8 bg-brand-400", "w-2.5 bg-slate-500 group-hover:bg-slate-300"];

export const INDUSTRY_TAB: ClassPair = ["border-brand-400 bg-brand-500/15 text-white", "border-ink-700 bg-ink-900 text-slate-300 hover:border-slate-500 hover:text-white"];

/** A detection box: staged, and grown to full size as it appears. */
export const DETECTION_BOX: ClassPair = ["scale-100", "invisible opacity-0 scale-95"];

export const PROGRESS_STEP: ClassPair = ["border-brand-400/60 bg-brand-500/15 text-brand-100", "border-ink-700 text-slate-400"];

export const PHASE_STATUS: Record<DemoPhase, string> = {
  idle: "Camera ready",
  detecting: "Scanning…",
  labeling: "Labeling…",
  story: "Captioning…",
  captured: "Complete",
};

export const PHASE_DOT: Record<DemoPhase, string> = {
  idle: "bg-slate-400",
  detecting: "bg-red-500",
  labeling: "bg-red-500",
  story: "bg-red-500",
  captured: "bg-emerald-400",
};

/** The demo's progress steps and the phases in which each counts as reached. */
export const PROGRESS: Array<{ label: string; reachedAt: DemoPhase[] }> = [
  { label: "Detect", reachedAt: ["detecting", "labeling", "story", "captured"] },
  { label: "Label", reachedAt: ["labeling", "story", "captured"] },
  { label: "Caption", reachedAt: ["story", "captured"] },
  { label: "Capture", reachedAt: ["captured"] },
];

export const progressText = (reached: boolean) => (reached ? " (done)" : " (waiting)");
export const menuLabel = (open: boolean) => (open ? "Close menu" : "Open menu");
export const slideshowLabel = (playing: boolean) => (playing ? "Pause slideshow" : "Play slideshow");
export const slideCounter = (index: number, total: number) => `${String(index + 1).padStart(2, "0")} / ${String(total).padStart(2, "0")}`;
