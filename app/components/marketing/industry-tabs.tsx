// Home section 4: one tab per industry (default broadcast), each with its title, description and key
// features; 'Contact Our Team' only where the deployment is set up with us.
import { useRef, useState, type KeyboardEvent } from "react";
import { buttonClass } from "../ui/button";
import { Link } from "react-router";
import { DEFAULT_INDUSTRY, industries, type Industry } from "./content/industries";
import { ArrowRightIcon, CheckIcon } from "./icons";
import { SectionHeading } from "./marketing-layout";

export function IndustryTabs() {
  const [selected, setSelected] = useState<Industry["id"]>(DEFAULT_INDUSTRY);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  // WAI-ARIA tabs with automatic activation: arrows move and select, Home and End jump to the ends.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = industries.findIndex((industry) => industry.id === selected);
    const last = industries.length - 1;
    const next: Record<string, number> = {
      ArrowRight: current === last ? 0 : current + 1,
      ArrowDown: current === last ? 0 : current + 1,
      ArrowLeft: current === 0 ? last : current - 1,
      ArrowUp: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    setSelected(industries[target]!.id);
    tabRefs.current[target]?.focus();
  };

  return (
    <section aria-labelledby="industries-title" data-section="industries" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <SectionHeading
        id="industries-title"
        eyebrow="Industries"
        title="Built for the way you use cameras"
        lead="From the broadcast truck to the factory floor, pick your field to see what vision AI does there."
      />
      <div role="tablist" aria-label="Industries" onKeyDown={onKeyDown} className="mt-10 flex flex-wrap justify-center gap-2">
        {industries.map((industry, index) => {
          const isSelected = industry.id === selected;
          return (
            <button
              key={industry.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`industry-tab-${industry.id}`}
              aria-selected={isSelected}
              aria-controls={`industry-panel-${industry.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => setSelected(industry.id)}
              className={`inline-flex items-center gap-2 rounded-full border px-4 py-2.5 text-sm font-medium transition-colors ${
                isSelected
                  ? "border-brand-400 bg-brand-500/15 text-white"
                  : "border-ink-700 bg-ink-900 text-slate-300 hover:border-slate-500 hover:text-white"
              }`}
            >
              <industry.icon className="h-4 w-4" />
              {industry.name}
            </button>
          );
        })}
      </div>
      {industries.map((industry) => (
        <IndustryPanel key={industry.id} industry={industry} hidden={industry.id !== selected} />
      ))}
    </section>
  );
}

function IndustryPanel({ industry, hidden }: { industry: Industry; hidden: boolean }) {
  return (
    <div
      role="tabpanel"
      id={`industry-panel-${industry.id}`}
      aria-labelledby={`industry-tab-${industry.id}`}
      tabIndex={0}
      hidden={hidden}
      className="mt-8 rounded-3xl border border-ink-700 bg-gradient-to-br from-ink-900 to-ink-950 p-6 sm:p-10"
    >
      <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
        <div>
          <span className={`inline-flex h-12 w-12 items-center justify-center rounded-xl ${industry.colors.icon}`}>
            <industry.icon className="h-6 w-6" />
          </span>
          <p className={`mt-5 text-sm font-semibold uppercase tracking-[0.16em] ${industry.colors.badge}`}>{industry.name}</p>
          <h3 className="mt-2 text-2xl font-semibold text-white sm:text-3xl">{industry.title}</h3>
          <p className="mt-4 leading-7 text-slate-300">{industry.description}</p>
          {industry.contactRequired ? (
            <Link to="/contact" className={buttonClass("primary", "mt-6 px-5 py-2.5")}>
              Contact Our Team
              <ArrowRightIcon className="h-4 w-4" />
            </Link>
          ) : null}
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-950/60 p-6">
          <h4 className="text-sm font-semibold uppercase tracking-[0.16em] text-slate-300">Key features</h4>
          <ul className="mt-4 space-y-3">
            {industry.features.map((feature) => (
              <li key={feature} className="flex gap-3 text-slate-200">
                <CheckIcon className={`mt-0.5 h-5 w-5 shrink-0 ${industry.colors.check}`} />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
