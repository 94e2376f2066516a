// Home section 3: the three-step flow, Connect, Detect, Automate.
import { steps } from "./content/highlights";
import { SectionHeading } from "./marketing-layout";

export function HowItWorks() {
  return (
    <section aria-labelledby="steps-title" data-section="steps" className="border-y border-ink-800 bg-ink-900/40">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <SectionHeading
          id="steps-title"
          eyebrow="How it works"
          title="From camera to automation in three steps"
          lead="No model training, no servers to run: open the studio in a browser and start asking your camera questions."
        />
        <ol className="relative mt-12 grid gap-6 md:grid-cols-3">
          <div className="absolute top-9 right-[16%] left-[16%] hidden h-px bg-gradient-to-r from-transparent via-brand-500/50 to-transparent md:block" aria-hidden="true" />
          {steps.map((step) => (
            <li key={step.number} className="relative rounded-2xl border border-ink-700 bg-ink-900 p-6">
              <div className="flex items-center gap-4">
                <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-500/15 text-brand-400 ring-1 ring-brand-500/30">
                  <step.icon className="h-6 w-6" />
                </span>
                <span className="font-mono text-sm font-semibold text-brand-400">{step.number}</span>
              </div>
              <h3 className="mt-5 text-xl font-semibold text-white">
                <span className="sr-only">{step.number} </span>
                {step.title}
              </h3>
              <p className="mt-2 leading-7 text-slate-300">{step.description}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
