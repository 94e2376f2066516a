// /pricing: the three tiers, the FAQ and the way to sign up or talk to sales.
import { publicOrigin } from "#server/http/public-origin";
import { marketingPages } from "../../components/marketing/content/pages";
import { faqs, FREE_API_CALLS, tiers } from "../../components/marketing/content/pricing";
import { ArrowRightIcon } from "../../components/marketing/icons";
import { MarketingLayout, PageIntro } from "../../components/marketing/marketing-layout";
import { PricingTierCard } from "../../components/marketing/pricing-tier-card";
import { ButtonPageLink } from "../../components/marketing/page-link";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/pricing";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  return { origin: publicOrigin(request) };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.pricing, origin: loaderData?.origin });

export default function Pricing() {
  return (
    <MarketingLayout>
      <PageIntro
        eyebrow="Pricing"
        title="Start free, scale when you're ready"
        lead={`Test vision AI on your own camera with ${FREE_API_CALLS} free API calls. When it's time for production, we shape a plan around your deployment.`}
      />
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid gap-8 lg:grid-cols-3">
          {tiers.map((tier) => (
            <PricingTierCard key={tier.name} tier={tier} />
          ))}
        </div>
        <p className="mt-8 text-center text-sm text-slate-400">Commercial and educational licensing available on every paid plan.</p>
      </div>

      <section aria-labelledby="faq-title" className="border-t border-ink-800 bg-ink-900/40">
        <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
          <h2 id="faq-title" className="text-center text-3xl font-bold tracking-tight text-white">
            Frequently asked questions
          </h2>
          <div className="mt-10 divide-y divide-ink-700 rounded-2xl border border-ink-700 bg-ink-900">
            {faqs.map((faq) => (
              <details key={faq.question} className="group px-6 py-5">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded text-left font-semibold text-white [&::-webkit-details-marker]:hidden">
                  <h3>{faq.question}</h3>
                  <span className="text-xl leading-none text-brand-400 transition-transform group-open:rotate-45" aria-hidden="true">
                    +
                  </span>
                </summary>
                <p className="mt-3 leading-7 text-slate-300">{faq.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="pricing-cta-title" className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
        <h2 id="pricing-cta-title" className="text-2xl font-bold text-white sm:text-3xl">
          Not sure which plan fits?
        </h2>
        <p className="mt-3 text-lg text-slate-300">Tell us about your cameras and what you want to detect. We reply within one business day.</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonPageLink to="/contact" className="px-6 py-3 text-base">
            Talk to Sales
            <ArrowRightIcon className="h-5 w-5" />
          </ButtonPageLink>
          <ButtonPageLink to="/signup" variant="secondary" className="px-6 py-3 text-base">
            Create a Free Account
          </ButtonPageLink>
        </div>
      </section>
    </MarketingLayout>
  );
}
