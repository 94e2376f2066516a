// Home section 4: one tab per industry (default broadcast), each with its title, description and key
// features; 'Contact Our Team' only where the deployment is set up with us. The server renders the default tab.
import { PageLink } from "./page-link";
import { buttonClass } from "../ui/button";
import { DEFAULT_INDUSTRY, industries, type Industry } from "./content/industries";
import { ArrowRightIcon, CheckIcon } from "./icons";
import { SectionHeading } from "./marketing-layout";
import { INDUSTRY_TAB, pick } from "./view-states";

/** WAI-ARIA tabs with automatic activation; the page script's tabs.ts switches them (arrows, Home, End). */
export function IndustryTabs() {
  return (
    <section aria-labelledby="industries-title" data-section="industries" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <SectionHeading
        id="industries-title"
        eyebrow="Industries"
        title="Built for the way you use cameras"
        lead="From the broadcast truck to the factory floor, pick your field to see what vision AI does there."
      />
      <div role="tablist" aria-label="Industries" data-tabs className="mt-10 flex flex-wrap justify-center gap-2">
        {industries.map((industry) => {
          const isSelected = industry.id === DEFAULT_INDUSTRY;
          return (
            <button
              key={industry.id}
              type="button"
              role="tab"
              id={`industry-tab-${industry.id}`}
              aria-selected={isSelected}
              aria-controls={`industry-panel-${industry.id}`}
              tabIndex={isSelected ? 0 : -1}
              className={`inline-flex items-center gap-2 rounded-full border px-4 py-2.5 text-sm font-medium transition-colors ${pick(INDUSTRY_TAB, isSelected)}`}
            >
              <industry.icon className="h-4 w-4" />
              {industry.name}
            </button>
          );
        })}
      </div>
      {industries.map((industry) => (
        <IndustryPanel key={industry.id} industry={industry} hidden={industry.id !== DEFAULT_INDUSTRY} />
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
          <p className={`mt-5 text-sm font-semibold tracking-[0.16em] uppercase ${industry.colors.badge}`}>{industry.name}</p>
          <h3 className="mt-2 text-2xl font-semibold text-white sm:text-3xl">{industry.title}</h3>
          <p className="mt-4 leading-7 text-slate-300">{industry.description}</p>
          {industry.contactRequired ? (
            <PageLink to="/contact" className={buttonClass("primary", "mt-6 px-5 py-2.5")}>
              Contact Our Team
              <ArrowRightIcon className="h-4 w-4" />
            </PageLink>
          ) : null}
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-950/60 p-6">
          <h4 className="text-sm font-semibold tracking-[0.16em] text-slate-300 uppercase">Key features</h4>
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
