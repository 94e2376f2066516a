// The one place the AI modes' rules live (spec §2, §4): captions, story and people counting share the
// caption family (story and counting need AI on, AI off ends both, and one overlay shows at a time —
// counting over story over caption), and point and box detection exclude each other. The controllers
// report their switches here and never switch each other.
import type { DetectionSource } from "../local-vision/local-vision-prefs";

export type CaptionFamilyMode = "captions" | "story" | "counting";
export type CaptionFamilyState = Record<CaptionFamilyMode, boolean>;

/** What else switches when one caption-family mode has switched (a patch of the other modes). */
export function followUps(mode: CaptionFamilyMode, on: boolean): Partial<CaptionFamilyState> {
  if (mode === "captions") return on ? {} : { story: false, counting: false };
  return on ? { captions: true } : {};
}

/** Counting could not start: AI goes off too — except under a running story, which needs AI. */
export function afterCountingFailed(state: Pick<CaptionFamilyState, "story">): Partial<CaptionFamilyState> {
  return state.story ? {} : { captions: false };
}

/**
 * What one turn of the caption loop asks for: a story caption in story mode, a plain caption otherwise —
 * except while counting, whose overlay hides the plain caption (no calls are spent on it meanwhile).
 */
export function captionStepKind(state: { story: boolean; counting: boolean }): "story" | "caption" | null {
  if (state.story) return "story";
  return state.counting ? null : "caption";
}

export type CaptionOverlayKind = "counting" | "story" | "caption";

/** Which caption-family overlay the preview shows: counting over story over the plain caption. */
export function captionOverlayKind(state: CaptionFamilyState): CaptionOverlayKind | null {
  if (state.counting) return "counting";
  if (state.story) return "story";
  if (state.captions) return "caption";
  return null;
}

export type DetectionKind = "box" | "point";

/** Point and box detection exclude each other: switching one on switches the other off. */
export function detectionSwitch(kind: DetectionKind, on: boolean, current: Record<DetectionKind, boolean>): Record<DetectionKind, boolean> {
  const other: DetectionKind = kind === "box" ? "point" : "box";
  return { [kind]: on, [other]: on ? false : current[other] } as Record<DetectionKind, boolean>;
}

/** How a controller tells the modes it switched, and reads the others (its part of the host). */
export interface ModesHost {
  state(): CaptionFamilyState;
  /** A mode switched by its own controller; `quiet`: a quota stop, said once by the engine. */
  switched(mode: CaptionFamilyMode, on: boolean, options?: { quiet?: boolean }): void;
  countingFailed(): void;
}

/** The switches the modes drive (the caption and counting controllers, narrowed). */
export interface CaptionFamilySwitches {
  captions: { isOn(): boolean; setEnabled(on: boolean, options?: { quiet?: boolean }): void };
  story: { isOn(): boolean; stopStory(options?: { quiet?: boolean }): Promise<void> };
  counting: { isOn(): boolean; stop(options?: { quiet?: boolean }): Promise<void> };
}

/** Applies the rules above to the controllers; made once the controllers exist. */
export class AiModes implements ModesHost {
  private switches: CaptionFamilySwitches | null = null;

  connect(switches: CaptionFamilySwitches): void {
    this.switches = switches;
  }

  state(): CaptionFamilyState {
    const s = this.switches;
    return { captions: s?.captions.isOn() ?? false, story: s?.story.isOn() ?? false, counting: s?.counting.isOn() ?? false };
  }

  switched(mode: CaptionFamilyMode, on: boolean, options: { quiet?: boolean } = {}): void {
    this.apply(followUps(mode, on), options);
  }

  countingFailed(): void {
    this.apply(afterCountingFailed(this.state()), {});
  }

  private apply(patch: Partial<CaptionFamilyState>, options: { quiet?: boolean }): void {
    const s = this.switches;
    if (!s) return;
    if (patch.captions !== undefined && patch.captions !== s.captions.isOn()) s.captions.setEnabled(patch.captions, options);
    if (patch.story === false) void s.story.stopStory(options);
    if (patch.counting === false) void s.counting.stop(options);
  }
}

/** One detection source's switch, as the link below needs it. */
export interface DetectionSourceSwitch {
  isOn(): boolean;
  off(): void;
  subscribe(listener: () => void): () => void;
}

/**
 * Local detection and Moondream's detection share the boxes overlay, so one source runs at a time: when one
 * switches on (by its switch, a command or a hotkey), the other switches off and the tab shows the one now on.
 */
export function linkDetectionSources(switches: Record<DetectionSource, DetectionSourceSwitch>, chosen: (source: DetectionSource) => void): () => void {
  const sources: DetectionSource[] = ["local", "moondream"];
  const was = { local: switches.local.isOn(), moondream: switches.moondream.isOn() };
  const offs = sources.map((source) =>
    switches[source].subscribe(() => {
      const on = switches[source].isOn();
      if (on === was[source]) return;
      was[source] = on;
      if (!on) return;
      const other = source === "local" ? "moondream" : "local";
      if (switches[other].isOn()) switches[other].off();
      chosen(source);
    }),
  );
  return () => offs.forEach((off) => off());
}
