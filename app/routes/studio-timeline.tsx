// /studio/timeline: the events timeline (what happened on the user's cameras), for signed-in users (anonymous visitors
// go to /login). The shell renders on the server; the events load in the browser.
import { requireUserPage } from "#server/accounts/sessions";
import { TimelinePage } from "../components/timeline/timeline-page";
import { brand } from "../lib/brand";
import type { Route } from "./+types/studio-timeline";

export const meta: Route.MetaFunction = () => [{ title: `Timeline | ${brand.productName}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return { user: await requireUserPage(request) };
}

export default function StudioTimeline({ loaderData }: Route.ComponentProps) {
  return <TimelinePage user={loaderData.user} />;
}
