// The Education and Wildlife demos (spec §4): once 40% of the picture is visible, play the timeline of
// demo-timeline.ts — scan, boxes one by one, the caption word by word, the capture — exactly once.
import { DEMO_VISIBILITY_THRESHOLD } from "../content/demos";
import { demoTimeline, finalState, IDLE, type DemoState } from "../demo-timeline";
import { DETECTION_BOX, PHASE_DOT, PHASE_STATUS, PROGRESS_STEP, progressText, STAGED } from "../view-states";
import { all, one, onReducedMotionChange, prefersReducedMotion, setClasses, setOneOf, whenInView } from "./dom";

const DOT_COLOURS = Object.values(PHASE_DOT);

export function enhanceDemo(stage: HTMLElement): void {
  const section = stage.closest("section") ?? stage;
  const boxes = all(stage, "[data-box]");
  const words = all(stage, "[data-word]");
  const steps = all(section, "[data-reached-at]");
  const status = one(stage, "[data-demo-status]");
  const dot = one(stage, "[data-demo-dot]");
  const badge = one(stage, "[data-demo-badge]");
  const scan = one(stage, "[data-demo-scan]");
  const flash = one(stage, "[data-demo-flash]");
  const caret = one(stage, "[data-demo-caret]");
  const counts = { boxCount: boxes.length, wordCount: words.length };
  let timers: Array<ReturnType<typeof setTimeout>> = [];
  let phase = IDLE.phase;

  /** Shows a state; the scan line, caret and flash only move when animating. */
  const render = (state: DemoState, animate: boolean) => {
    phase = state.phase;
    stage.dataset.phase = state.phase;
    status.textContent = PHASE_STATUS[state.phase];
    setOneOf(dot, DOT_COLOURS, PHASE_DOT[state.phase]);
    for (const step of steps) {
      const reached = (step.dataset.reachedAt ?? "").split(" ").includes(state.phase);
      setClasses(step, PROGRESS_STEP, reached);
      if (step.lastElementChild) step.lastElementChild.textContent = progressText(reached);
    }
    boxes.forEach((box, index) => setClasses(box, DETECTION_BOX, index < state.boxes));
    words.forEach((word, index) => setClasses(word, STAGED, index < state.words));
    setClasses(badge, STAGED, state.phase === "captured");
    scan.hidden = !(animate && state.phase === "detecting");
    caret.hidden = !(animate && state.phase === "story");
    flash.hidden = !(animate && state.phase === "captured");
  };
  const finish = () => {
    timers.forEach(clearTimeout);
    render(finalState(counts), false);
  };

  onReducedMotionChange((reduced) => reduced && finish());
  if (prefersReducedMotion()) return finish();
  whenInView(stage, DEMO_VISIBILITY_THRESHOLD, () => {
    if (phase !== "idle") return;
    const timeline = demoTimeline({ ...counts, boxIntervalMs: Number(stage.dataset.boxInterval) });
    timers = timeline.map((step) => setTimeout(() => render(step.state, true), step.at));
  });
}
