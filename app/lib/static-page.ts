// Pages that are never hydrated: a route's handle says `hydrate: false` (and may name one module script to
// load instead), and the root layout then leaves out React Router's scripts and module preloads.
import { useMatches } from "react-router";

export interface PageHandle {
  hydrate?: boolean;
  /** URL of the module script a non-hydrated page loads instead of the app. */
  script?: string;
}

/** The handle of a non-hydrated page, or null when the page hydrates as usual. */
export function useStaticPage(): PageHandle | null {
  const matches = useMatches();
  for (const match of matches) {
    const handle = match.handle as PageHandle | undefined;
    if (handle?.hydrate === false) return handle;
  }
  return null;
}

/**
 * A clientLoader for non-hydrated pages: a client-side navigation from a hydrated page (a Link on the sign-in
 * page to /eula, say) would render such a page with React and without its script, so load it as a whole
 * document instead. The promise never settles; the browser leaves the page.
 */
export function loadAsDocument({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}
