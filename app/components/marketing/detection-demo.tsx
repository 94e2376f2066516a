// Home sections 5 and 6: a picture the AI scans, labels, captions and captures, played once when 40% of it
// is in view (spec §4). The server renders the idle state with every later element in place but hidden; the
// page script's demo.ts plays the timeline, or shows the end state at once to visitors who prefer less motion.
import { DEMO_IMAGE_SIZE, type Demo, type DemoBox } from "./content/demos";
import { IDLE } from "./demo-timeline";
import { CameraIcon, CheckIcon } from "./icons";
import { DETECTION_BOX, PHASE_DOT, PHASE_STATUS, pick, PROGRESS, PROGRESS_STEP, progressText, stagedClass } from "./view-states";

const state = IDLE;

export function DetectionDemo({ demo, reverse = false }: { demo: Demo; reverse?: boolean }) {
  const titleId = `demo-${demo.id}-title`;

  return (
    <section aria-labelledby={titleId} data-section={demo.id} className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <div className={`grid items-center gap-10 lg:gap-14 ${reverse ? "lg:grid-cols-[3fr_2fr] lg:[&>*:first-child]:order-2" : "lg:grid-cols-[2fr_3fr]"}`}>
        <div>
          <p className="text-sm font-semibold tracking-[0.18em] text-brand-400 uppercase">{demo.eyebrow}</p>
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
                  data-reached-at={step.reachedAt.join(" ")}
                  className={`rounded-full border px-3 py-1 text-xs font-semibold transition-colors ${pick(PROGRESS_STEP, reached)}`}
                >
                  {step.label}
                  <span className="sr-only">{progressText(reached)}</span>
                </li>
              );
            })}
          </ol>
        </div>
        <DemoStage demo={demo} />
      </div>
    </section>
  );
}

function DemoStage({ demo }: { demo: Demo }) {
  const words = demo.caption.split(" ");
  const captured = state.phase === "captured";
  return (
    <div
      data-testid={`demo-${demo.id}`}
      data-demo
      data-box-interval={demo.boxIntervalMs}
      data-phase={state.phase}
      className="overflow-hidden rounded-3xl border border-ink-700 bg-ink-900 shadow-2xl shadow-black/40"
    >
      <div className="relative">
        <img src={demo.image} alt={demo.alt} width={DEMO_IMAGE_SIZE.width} height={DEMO_IMAGE_SIZE.height} loading="lazy" decoding="async" className="block h-auto w-full" />
        <div data-demo-scan hidden className="absolute inset-x-0 top-0 h-1 animate-scan bg-brand-400 shadow-[0_0_24px_6px_rgba(89,183,255,0.7)]" aria-hidden="true" />
        {demo.boxes.map((box, index) => (
          <DetectionBox key={box.id} box={box} shown={index < state.boxes} />
        ))}

        <p className="absolute bottom-3 left-3 rounded-full bg-ink-950/80 px-3 py-1 text-xs font-semibold text-slate-100 backdrop-blur">
          <span data-demo-dot className={`mr-1.5 inline-block h-2 w-2 rounded-full ${PHASE_DOT[state.phase]}`} aria-hidden="true" />
          <span data-demo-status>{PHASE_STATUS[state.phase]}</span>
        </p>
        <p
          data-staged
          data-demo-badge
          role="status"
          className={`absolute right-3 bottom-3 inline-flex items-center gap-1.5 rounded-full bg-emerald-500 px-3 py-1 text-xs font-bold text-emerald-950 shadow-lg transition-[opacity,visibility] duration-300 ${stagedClass(captured)}`}
        >
          <CameraIcon className="h-4 w-4" />
          Photo Auto-Captured
        </p>
        <div data-demo-flash hidden className="pointer-events-none absolute inset-0 animate-flash bg-white" aria-hidden="true" />
      </div>
      <div className="border-t border-ink-700 px-5 py-4">
        <p className="text-[0.7rem] font-semibold tracking-[0.16em] text-brand-400 uppercase">AI caption</p>
        <p className="mt-1 min-h-[3rem] leading-6 text-slate-100">
          <span className="sr-only">{demo.caption}</span>
          <span aria-hidden="true">
            {words.map((word, index) => (
              <span key={index} data-staged data-word className={stagedClass(index < state.words)}>
                {word}{" "}
              </span>
            ))}
            <span data-demo-caret hidden className="ml-0.5 inline-block h-5 w-0.5 translate-y-1 animate-pulse bg-brand-400" />
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
      className={`absolute rounded-md border-2 border-brand-400 bg-brand-400/10 shadow-[0_0_0_1px_rgba(11,15,23,0.4)] transition-[opacity,visibility,transform] duration-300 motion-reduce:transition-none ${pick(DETECTION_BOX, shown)}`}
      style={{ left: `${box.x}%`, top: `${box.y}%`, width: `${box.width}%`, height: `${box.height}%` }}
    >
      <span
        className={`absolute -top-6 rounded-md bg-brand-400 px-1.5 py-0.5 text-[0.625rem] font-bold whitespace-nowrap text-ink-950 sm:-top-7 sm:px-2 sm:text-xs ${alignRight ? "right-[-2px]" : "left-[-2px]"}`}
      >
        {box.label}
        <span className="hidden font-semibold opacity-80 sm:inline"> {box.confidence}%</span>
      </span>
    </div>
  );
}
