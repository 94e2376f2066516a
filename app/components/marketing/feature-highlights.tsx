// Home section 7: the six feature highlights.
import { highlights } from "./content/highlights";
import { SectionHeading } from "./marketing-layout";

export function FeatureHighlights() {
  return (
    <section aria-labelledby="features-title" data-section="features" className="border-y border-ink-800 bg-ink-900/40">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to put a camera to work"
          lead="Detection, capture, storage and automation in one studio, with the camera controls professionals expect."
        />
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {highlights.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-ink-700 bg-ink-900 p-6 transition-colors hover:border-brand-500/50">
              <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-500/15 text-brand-400 ring-1 ring-brand-500/30">
                <feature.icon className="h-5 w-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-white">{feature.title}</h3>
              <p className="mt-2 leading-7 text-slate-300">{feature.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
