// Home section 8: the open-source model behind the product, and why a (free) API key is needed.
import { brand } from "../../lib/brand";
import { buttonClass } from "../ui/button";
import { FREE_API_CALLS } from "./content/free-tier";
import { ExternalLink } from "./external-link";
import { KeyIcon, SparklesIcon } from "./icons";

export function BuiltWith() {
  return (
    <section aria-labelledby="built-with-title" data-section="built-with" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <div className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
        <div>
          <p className="inline-flex items-center gap-2 text-sm font-semibold tracking-[0.18em] text-brand-400 uppercase">
            <SparklesIcon className="h-4 w-4" />
            Open-source AI
          </p>
          <h2 id="built-with-title" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Built with {brand.visionModel}
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-300">
            {brand.productName} runs on {brand.visionModel}, an open-source vision language model from {brand.visionPartner}. It looks at a frame and answers in plain language: a
            caption of the scene, the points where something is, or a box around any object you name.
          </p>
          <p className="mt-4 leading-7 text-slate-400">Open weights mean no lock-in and a model you can inspect, and for sensitive settings it can run on your own hardware.</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ExternalLink href={brand.visionWebsite} className={buttonClass("secondary", "px-5 py-2.5")}>
              Visit {brand.visionModel}
            </ExternalLink>
            <ExternalLink href={brand.visionDocs} className={buttonClass("ghost", "px-5 py-2.5")}>
              View Documentation
            </ExternalLink>
          </div>
        </div>
        <aside
          aria-labelledby="api-key-title"
          className="relative overflow-hidden rounded-3xl border border-brand-500/30 bg-gradient-to-br from-brand-500/15 via-ink-900 to-ink-900 p-8"
        >
          <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-500/20 text-brand-400 ring-1 ring-brand-500/40">
            <KeyIcon className="h-6 w-6" />
          </span>
          <h3 id="api-key-title" className="mt-6 text-2xl font-semibold text-white">
            An API key is required, and it's free
          </h3>
          <p className="mt-3 leading-7 text-slate-300">
            Each account uses its own {brand.visionModel} API key. Getting one costs nothing: create it on the {brand.visionModel} website, then add it in your account settings
            after you sign up.
          </p>
          <p className="mt-3 leading-7 text-slate-300">No key yet? Start straight away on a shared key with {FREE_API_CALLS} free calls.</p>
        </aside>
      </div>
    </section>
  );
}
