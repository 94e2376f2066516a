// One plan on /pricing: price, what it includes, its limits and its call to action.
import { PageLink } from "./page-link";
import { buttonClass } from "../ui/button";
import type { PricingTier } from "./content/pricing";
import { CheckIcon, MinusIcon } from "./icons";

export function PricingTierCard({ tier }: { tier: PricingTier }) {
  const headingId = `tier-${tier.name.toLowerCase()}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex flex-col rounded-3xl border p-8 ${
        tier.highlighted ? "shadow-brand-900/20 border-brand-400/70 bg-gradient-to-b from-brand-500/15 to-ink-900 shadow-2xl" : "border-ink-700 bg-ink-900"
      }`}
    >
      {tier.highlighted ? <p className="absolute -top-3.5 left-8 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">Recommended for business</p> : null}
      <h2 id={headingId} className="text-xl font-semibold text-white">
        {tier.name}
      </h2>
      <p className="mt-2 min-h-[3rem] leading-6 text-slate-300">{tier.description}</p>
      <p className="mt-6 flex items-baseline gap-2">
        <span className="text-4xl font-bold tracking-tight text-white">{tier.price}</span>
        <span className="text-sm text-slate-400">{tier.period}</span>
      </p>
      <PageLink to={tier.cta.to} className={buttonClass(tier.highlighted ? "primary" : "secondary", "mt-6 w-full py-3")}>
        {tier.cta.label}
      </PageLink>
      <h3 className="mt-8 text-sm font-semibold text-white">What's included</h3>
      <ul className="mt-3 space-y-3 text-sm">
        {tier.features.map((feature) => (
          <li key={feature} className="flex gap-3 text-slate-200">
            <CheckIcon className="h-5 w-5 shrink-0 text-brand-400" />
            {feature}
          </li>
        ))}
      </ul>
      {tier.limitations.length ? (
        <>
          <h3 className="mt-6 text-sm font-semibold text-white">Limitations</h3>
          <ul className="mt-3 space-y-3 text-sm">
            {tier.limitations.map((limitation) => (
              <li key={limitation} className="flex gap-3 text-slate-400">
                <MinusIcon className="h-5 w-5 shrink-0" />
                {limitation}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}
