// / : the landing page, its eight sections in the order of spec §2.
import { publicOrigin } from "#server/http/public-origin";
import { BuiltWith } from "../../components/marketing/built-with";
import { ClosingCta } from "../../components/marketing/closing-cta";
import { labDemo, wildlifeDemo } from "../../components/marketing/content/demos";
import { marketingPages } from "../../components/marketing/content/pages";
import { DetectionDemo } from "../../components/marketing/detection-demo";
import { FeatureHighlights } from "../../components/marketing/feature-highlights";
import { Hero } from "../../components/marketing/hero";
import { HowItWorks } from "../../components/marketing/how-it-works";
import { IndustryTabs } from "../../components/marketing/industry-tabs";
import { MarketingLayout } from "../../components/marketing/marketing-layout";
import { ShowcaseCarousel } from "../../components/marketing/showcase-carousel";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/home";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  return { origin: publicOrigin(request) };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.home, origin: loaderData?.origin });

export default function Home() {
  return (
    <MarketingLayout showHomeLink={false}>
      <Hero />
      <ShowcaseCarousel />
      <HowItWorks />
      <IndustryTabs />
      <DetectionDemo demo={labDemo} />
      <div className="border-t border-ink-800" />
      <DetectionDemo demo={wildlifeDemo} reverse />
      <FeatureHighlights />
      <BuiltWith />
      <ClosingCta />
    </MarketingLayout>
  );
}
