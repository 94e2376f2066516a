// /studio/insights: the Insights page (attendance, footfall and occupancy reports), for signed-in users (anonymous
// visitors go to /login). The shell renders on the server; the reports load in the browser. ECharts is imported only
// from this route's modules, so it stays in this route's chunk.
import { requireUserPage } from "#server/accounts/sessions";
import { InsightsPage } from "../components/insights/insights-page";
import { brand } from "../lib/brand";
import type { Route } from "./+types/studio-insights";

export const meta: Route.MetaFunction = () => [{ title: `Insights | ${brand.productName}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return { user: await requireUserPage(request) };
}

export default function StudioInsights({ loaderData }: Route.ComponentProps) {
  return <InsightsPage user={loaderData.user} />;
}
