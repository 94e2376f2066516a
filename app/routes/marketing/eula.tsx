// /eula: the End User License Agreement, dated the day it is read (spec §2).
import { format } from "date-fns";
import { publicOrigin } from "#server/http/public-origin";
import { BackLink } from "../../components/marketing/back-link";
import { eulaSections } from "../../components/marketing/content/eula";
import { marketingPages } from "../../components/marketing/content/pages";
import { MarketingLayout } from "../../components/marketing/marketing-layout";
import { brand } from "../../lib/brand";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/eula";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  // Formatted on the server so the page and its hydration agree on the date.
  return { origin: publicOrigin(request), lastUpdated: format(new Date(), "MMM d, yyyy") };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.eula, origin: loaderData?.origin });

export default function Eula({ loaderData }: Route.ComponentProps) {
  return (
    <MarketingLayout>
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <BackLink />
        <p className="mt-8 text-sm font-semibold tracking-[0.18em] text-brand-400 uppercase">Legal</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-white">End User License Agreement</h1>
        <p className="mt-3 text-slate-400">Last Updated: {loaderData.lastUpdated}</p>
        <p className="mt-6 leading-7 text-slate-300">
          Please read this agreement carefully. It explains the terms on which {brand.legalName} lets you use {brand.productName}, and what you agree to when you create an account.
        </p>

        <nav aria-labelledby="eula-contents" className="mt-10 rounded-2xl border border-ink-700 bg-ink-900 p-6">
          <h2 id="eula-contents" className="text-sm font-semibold tracking-[0.16em] text-slate-300 uppercase">
            Contents
          </h2>
          <ol className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {eulaSections.map((section, index) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="inline-block rounded py-1 text-slate-300 hover:text-white">
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="mt-12 space-y-10">
          {eulaSections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
              <h2 id={`${section.id}-title`} className="text-xl font-semibold text-white">
                {index + 1}. {section.title}
              </h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-3 leading-7 text-slate-300">
                  {paragraph}
                </p>
              ))}
              {section.list ? (
                <ul className="mt-3 list-disc space-y-2 pl-6 leading-7 text-slate-300 marker:text-brand-400">
                  {section.list.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
        </div>
        <div className="mt-14 border-t border-ink-800 pt-8">
          <BackLink />
        </div>
      </div>
    </MarketingLayout>
  );
}
