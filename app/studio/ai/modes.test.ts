// The AI modes' rules in one place: AI off ends story and counting, either needs AI on, a failed counting
// start turns AI off except under a story, one caption-family overlay at a time, box and point exclusive, one detection source at a time.
import { describe, expect, it, vi } from "vitest";
import { createStore } from "../store";
import { afterCountingFailed, AiModes, captionOverlayKind, captionStepKind, detectionSwitch, followUps, linkDetectionSources } from "./modes";

describe("the caption family's rules", () => {
  it("ends story and counting with AI, and turns AI on for either", () => {
    expect(followUps("captions", false)).toEqual({ story: false, counting: false });
    expect(followUps("captions", true)).toEqual({});
    expect(followUps("story", true)).toEqual({ captions: true });
    expect(followUps("counting", true)).toEqual({ captions: true });
    expect(followUps("story", false)).toEqual({});
    expect(followUps("counting", false)).toEqual({});
  });

  it("turns AI off when counting fails to start, unless a story runs", () => {
    expect(afterCountingFailed({ story: false })).toEqual({ captions: false });
    expect(afterCountingFailed({ story: true })).toEqual({});
  });

  it("spends no plain-caption calls under the counting overlay, but keeps the story going", () => {
    expect(captionStepKind({ story: false, counting: false })).toBe("caption");
    expect(captionStepKind({ story: false, counting: true })).toBeNull();
    expect(captionStepKind({ story: true, counting: true })).toBe("story");
  });

  it("puts counting over story over caption", () => {
    expect(captionOverlayKind({ counting: true, story: true, captions: true })).toBe("counting");
    expect(captionOverlayKind({ counting: false, story: true, captions: true })).toBe("story");
    expect(captionOverlayKind({ counting: false, story: false, captions: true })).toBe("caption");
    expect(captionOverlayKind({ counting: false, story: false, captions: false })).toBeNull();
  });
});

describe("detectionSwitch", () => {
  it("turns the other kind off when one goes on, and leaves it alone when one goes off", () => {
    expect(detectionSwitch("box", true, { box: false, point: true })).toEqual({ box: true, point: false });
    expect(detectionSwitch("point", true, { box: true, point: false })).toEqual({ box: false, point: true });
    expect(detectionSwitch("box", false, { box: true, point: false })).toEqual({ box: false, point: false });
    expect(detectionSwitch("point", false, { box: false, point: true })).toEqual({ box: false, point: false });
  });
});

/** Small fake switches that record what the modes do to them. */
function fakeSwitches(initial: { captions?: boolean; story?: boolean; counting?: boolean } = {}) {
  const state = { captions: false, story: false, counting: false, ...initial };
  const log: string[] = [];
  const modes = new AiModes();
  modes.connect({
    captions: {
      isOn: () => state.captions,
      setEnabled: (on, options) => {
        log.push(`captions ${on ? "on" : "off"}${options?.quiet ? " quietly" : ""}`);
        state.captions = on;
      },
    },
    story: { isOn: () => state.story, stopStory: vi.fn(async (options?: { quiet?: boolean }) => void log.push(`story off${options?.quiet ? " quietly" : ""}`)) },
    counting: { isOn: () => state.counting, stop: vi.fn(async (options?: { quiet?: boolean }) => void log.push(`counting off${options?.quiet ? " quietly" : ""}`)) },
  });
  return { modes, state, log };
}

describe("AiModes", () => {
  it("stops story and counting when AI is switched off, passing quiet on (a quota stop)", () => {
    const { modes, log } = fakeSwitches({ story: true, counting: true });
    modes.switched("captions", false, { quiet: true });
    expect(log).toEqual(["story off quietly", "counting off quietly"]);
  });

  it("turns AI on once counting or a story has started, and only when it is off", () => {
    const { modes, state, log } = fakeSwitches();
    modes.switched("counting", true);
    expect(state.captions).toBe(true);
    modes.switched("story", true);
    expect(log).toEqual(["captions on"]);
  });

  it("turns AI off after a failed counting start, but not under a running story", () => {
    const alone = fakeSwitches({ captions: true });
    alone.modes.countingFailed();
    expect(alone.log).toEqual(["captions off"]);
    const underStory = fakeSwitches({ captions: true, story: true });
    underStory.modes.countingFailed();
    expect(underStory.log).toEqual([]);
  });

  it("reads the modes from the switches", () => {
    const { modes } = fakeSwitches({ captions: true, counting: true });
    expect(modes.state()).toEqual({ captions: true, story: false, counting: true });
  });
});

describe("linkDetectionSources", () => {
  function source(on = false) {
    const store = createStore({ on });
    return { store, isOn: () => store.get().on, off: () => store.set({ on: false }), subscribe: store.subscribe };
  }

  it("switches the other source off when one switches on, and reports the one on", () => {
    const local = source();
    const moondream = source(true);
    const chosen: string[] = [];
    const unlink = linkDetectionSources({ local, moondream }, (s) => chosen.push(s));
    local.store.set({ on: true });
    expect(moondream.isOn()).toBe(false);
    moondream.store.set({ on: true });
    expect(local.isOn()).toBe(false);
    expect(chosen).toEqual(["local", "moondream"]);
    moondream.store.set({ on: false });
    expect(chosen).toEqual(["local", "moondream"]);
    moondream.store.set({ on: true });
    unlink();
    local.store.set({ on: true });
    expect(moondream.isOn()).toBe(true);
  });
});
