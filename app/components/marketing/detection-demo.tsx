// Home sections 5 and 6: a picture the AI scans, labels, captions and captures, played once when 40% of it
// is in view (spec §4), with the end state shown at once to visitors who prefer less motion.
import { useMemo } from "react";
import { DEMO_IMAGE_SIZE, DEMO_VISIBILITY_THRESHOLD, type Demo, type DemoBox } from "./content/demos";
import { demoTimeline, finalState, IDLE, type DemoPhase, type DemoState } from "./demo-timeline";
import { CameraIcon, CheckIcon } from "./icons";
import { useInView } from "./use-in-view";
import { usePrefersReducedMotion } from "./use-media";
import { stagedClass, useSchedule } from "./use-sequence";

const PHASE_STATUS: Record<DemoPhase, string> = {
  idle: "Camera ready",
  detecting: "Scanning…",
  labeling: "Labeling…",
  story: "Captioning…",
  captured: "Complete",
};

const PHASE_DOT: Record<DemoPhase, string> = {
  idle: "bg-slate-400",
  detecting: "bg-red-500",
  labeling: "bg-red-500",
  story: "bg-red-500",
  captured: "bg-emerald-400",
};

const PROGRESS: Array<{ label: string; reachedAt: DemoPhase[] }> = [
  { label: "Detect", reachedAt: ["detecting", "labeling", "story", "captured"] },
  { label: "Label", reachedAt: ["labeling", "story", "captured"] },
  { label: "Caption", reachedAt: ["story", "captured"] },
  { label: "Capture", reachedAt: ["captured"] },
];

export function DetectionDemo({ demo, reverse = false }: { demo: Demo; reverse?: boolean }) {
  const [stageRef, inView] = useInView<HTMLDivElement>(DEMO_VISIBILITY_THRESHOLD);
  const reducedMotion = usePrefersReducedMotion();
  const words = useMemo(() => demo.caption.split(" "), [demo.caption]);
  const timeline = useMemo(
    () => demoTimeline({ boxCount: demo.boxes.length, boxIntervalMs: demo.boxIntervalMs, wordCount: words.length }),
    [demo, words.length],
  );
  const played = useSchedule<DemoState>(timeline, inView && !reducedMotion, IDLE);
  const state = reducedMotion ? finalState({ boxCount: demo.boxes.length, wordCount: words.length }) : played;
  const titleId = `demo-${demo.id}-title`;

  return (
    <section aria-labelledby={titleId} data-section={demo.id} className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <div
        className={`grid items-center gap-10 lg:gap-14 ${reverse ? "lg:grid-cols-[3fr_2fr] lg:[&>*:first-child]:order-2" : "lg:grid-cols-[2fr_3fr]"}`}
      >
        <div>
          <p className="text-sm font-semibold uppercase tracking-[0.18em] text-brand-400">{demo.eyebrow}</p>
          <h2 id={titleId} className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            {demo.title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-300">{demo.description}</p>
          <ul className="mt-6 space-y-3">
            {demo.points.map((point) => (
              <li key={point} className="flex gap-3 text-slate-200">
                <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-400" />
                {point}
              </li>
            ))}
          </ul>
          <ol className="mt-8 flex flex-wrap gap-2" aria-label="Demo progress">
            {PROGRESS.map((step) => {
              const reached = step.reachedAt.includes(state.phase);
              return (
                <li
                  key={step.label}
                  className={`rounded-full border px-3 py-1 text-xs font-semibold transition-colors ${
                    reached ? "border-brand-400/60 bg-brand-500/15 text-brand-100" : "border-ink-700 text-slate-400"
                  }`}
                >
                  {step.label}
                  <span className="sr-only">{reached ? " (done)" : " (waiting)"}</span>
                </li>
              );
            })}
          </ol>
        </div>
        <DemoStage demo={demo} state={state} words={words} stageRef={stageRef} animate={!reducedMotion} />
      </div>
    </section>
  );
}

function DemoStage({
  demo,
  state,
  words,
  stageRef,
  animate,
}: {
  demo: Demo;
  state: DemoState;
  words: string[];
  stageRef: React.RefObject<HTMLDivElement | null>;
  animate: boolean;
}) {
  const captured = state.phase === "captured";
  return (
    <div
      ref={stageRef}
      data-testid={`demo-${demo.id}`}
      data-phase={state.phase}
      className="overflow-hidden rounded-3xl border border-ink-700 bg-ink-900 shadow-2xl shadow-black/40"
    >
      <div className="relative">
        <img
          src={demo.image}
          alt={demo.alt}
          width={DEMO_IMAGE_SIZE.width}
          height={DEMO_IMAGE_SIZE.height}
          loading="lazy"
          decoding="async"
          className="block h-auto w-full"
        />
        {state.phase === "detecting" && animate ? (
          <div
            className="animate-scan absolute inset-x-0 top-0 h-1 bg-brand-400 shadow-[0_0_24px_6px_rgba(89,183,255,0.7)]"
            aria-hidden="true"
          />
        ) : null}
        {demo.boxes.map((box, index) => (
          <DetectionBox key={box.id} box={box} shown={index < state.boxes} />
        ))}

        <p className="absolute bottom-3 left-3 rounded-full bg-ink-950/80 px-3 py-1 text-xs font-semibold text-slate-100 backdrop-blur">
          <span className={`mr-1.5 inline-block h-2 w-2 rounded-full ${PHASE_DOT[state.phase]}`} aria-hidden="true" />
          {PHASE_STATUS[state.phase]}
        </p>
        <p
          data-staged
          role="status"
          className={`absolute bottom-3 right-3 inline-flex items-center gap-1.5 rounded-full bg-emerald-500 px-3 py-1 text-xs font-bold text-emerald-950 shadow-lg transition-[opacity,visibility] duration-300 ${stagedClass(captured)}`}
        >
          <CameraIcon className="h-4 w-4" />
          Photo Auto-Captured
        </p>
        {captured && animate ? <div className="animate-flash pointer-events-none absolute inset-0 bg-white" aria-hidden="true" /> : null}
      </div>
      <div className="border-t border-ink-700 px-5 py-4">
        <p className="text-[0.7rem] font-semibold uppercase tracking-[0.16em] text-brand-400">AI caption</p>
        <p className="mt-1 min-h-[3rem] leading-6 text-slate-100">
          <span className="sr-only">{demo.caption}</span>
          <span aria-hidden="true">
            {words.map((word, index) => (
              <span key={index} data-staged data-word className={stagedClass(index < state.words)}>
                {word}{" "}
              </span>
            ))}
            {state.phase === "story" && animate ? (
              <span className="ml-0.5 inline-block h-5 w-0.5 translate-y-1 animate-pulse bg-brand-400" />
            ) : null}
          </span>
        </p>
      </div>
    </div>
  );
}

function DetectionBox({ box, shown }: { box: DemoBox; shown: boolean }) {
  // Labels of boxes at the right edge hang from the box's right edge so they stay inside the picture.
  const alignRight = box.x + box.width / 2 > 85;
  return (
    <div
      data-staged
      data-box={box.label}
      className={`absolute rounded-md border-2 border-brand-400 bg-brand-400/10 shadow-[0_0_0_1px_rgba(11,15,23,0.4)] transition-[opacity,visibility,transform] duration-300 motion-reduce:transition-none ${stagedClass(shown)} ${
        shown ? "scale-100" : "scale-95"
      }`}
      style={{ left: `${box.x}%`, top: `${box.y}%`, width: `${box.width}%`, height: `${box.height}%` }}
    >
      <span
        className={`absolute -top-6 whitespace-nowrap rounded-md bg-brand-400 px-1.5 py-0.5 text-[0.625rem] font-bold text-ink-950 sm:-top-7 sm:px-2 sm:text-xs ${alignRight ? "right-[-2px]" : "left-[-2px]"}`}
      >
        {box.label}
        <span className="hidden font-semibold opacity-80 sm:inline"> {box.confidence}%</span>
      </span>
    </div>
  );
}
