// /studio: the workspace, for signed-in users (anonymous visitors go to /login). The page shell renders
// on the server; the studio itself runs in the browser, where the cameras are.
import { useSyncExternalStore } from "react";
import { requireUserPage } from "#server/accounts/sessions";
import { StudioApp } from "../components/studio/studio-app";
import { brand } from "../lib/brand";
import type { Route } from "./+types/studio";

export const meta: Route.MetaFunction = () => [{ title: `Studio | ${brand.productName}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return { user: await requireUserPage(request) };
}

export default function Studio({ loaderData }: Route.ComponentProps) {
  // The server (and hydration) render the loading shell; the browser then mounts the studio.
  const inBrowser = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  if (!inBrowser) {
    return (
      <div className="flex h-dvh flex-col items-center justify-center gap-4 p-6 text-center text-sm text-slate-400">
        <p>Loading...</p>
        <noscript>
          <p className="max-w-md text-slate-300">The studio runs your cameras in the browser, so it needs JavaScript. Turn it on and reload this page.</p>
          <form method="post" action="/logout" className="mt-4">
            <span className="mr-3">
              Signed in as <span data-testid="signed-in-user">{loaderData.user.username}</span>
            </span>
            <button type="submit" className="rounded-md border border-ink-700 px-3 py-1.5 text-slate-200">
              Sign out
            </button>
          </form>
        </noscript>
      </div>
    );
  }
  return <StudioApp user={loaderData.user} />;
}
