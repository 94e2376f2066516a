// /downloads: ready-made modules, the People Counter available today and three on the way.
import { PageLink } from "../../components/marketing/page-link";
import { publicOrigin } from "#server/http/public-origin";
import { downloadModules } from "../../components/marketing/content/downloads";
import { marketingPages } from "../../components/marketing/content/pages";
import { DownloadCard } from "../../components/marketing/download-card";
import { SparklesIcon } from "../../components/marketing/icons";
import { MarketingLayout, PageIntro } from "../../components/marketing/marketing-layout";
import { buttonClass } from "../../components/ui/button";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/downloads";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  return { origin: publicOrigin(request) };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.downloads, origin: loaderData?.origin });

export default function Downloads() {
  return (
    <MarketingLayout>
      <PageIntro
        eyebrow="Downloads"
        title="Ready-made vision modules"
        lead="Self-contained tools built on the same vision AI as the studio. Download, open in a browser and point a camera."
      />
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid gap-6 md:grid-cols-2">
          {downloadModules.map((module) => (
            <DownloadCard key={module.id} module={module} />
          ))}
        </div>

        <aside
          aria-labelledby="custom-modules-title"
          className="mt-12 flex flex-col items-start gap-6 rounded-3xl border border-ink-700 bg-ink-900 p-8 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="flex gap-4">
            <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand-500/15 text-brand-400">
              <SparklesIcon className="h-6 w-6" />
            </span>
            <div>
              <h2 id="custom-modules-title" className="text-xl font-semibold text-white">
                Need a module built for you?
              </h2>
              <p className="mt-1 leading-7 text-slate-300">Paying customers can get custom modules made for their cameras and workflow. See what each plan includes.</p>
            </div>
          </div>
          <PageLink to="/pricing" className={buttonClass("secondary", "shrink-0 px-5 py-2.5")}>
            See pricing
          </PageLink>
        </aside>
      </div>
    </MarketingLayout>
  );
}
