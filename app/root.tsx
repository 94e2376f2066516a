// The document shell: head, nonce'd scripts, the toast viewport, and the app-wide error screens. Static pages
// (handle `hydrate: false`, the public site) get their one small script instead of the app's.
import { useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { getUser } from "#server/accounts/sessions";
import { takeFlash } from "#server/http/flash";
import type { Route } from "./+types/root";
import "./app.css";
import { errorMessage, ForbiddenScreen, UnexpectedErrorScreen } from "./components/error-screens";
import { toast } from "./components/ui/toast-store";
import { LazyToaster } from "./components/ui/lazy-toaster";
import { useNonce } from "./lib/nonce";
import { useStaticPage } from "./lib/static-page";
import { NotFound } from "./routes/not-found";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, flash] = await Promise.all([getUser(request), takeFlash(request)]);
  return data({ user, toast: flash.toast }, flash.clear ? { headers: { "Set-Cookie": flash.clear } } : undefined);
}

export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const staticPage = useStaticPage();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b0f17" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="min-h-screen">
        {children}
        {staticPage ? (
          staticPage.script ? (
            <script type="module" src={staticPage.script} nonce={nonce} />
          ) : null
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const flash = loaderData.toast;
  const staticPage = useStaticPage() !== null;
  useEffect(() => {
    if (flash) toast(flash);
  }, [flash]);
  // Without JavaScript, and on static pages where React never runs in the browser, the flash is plain HTML.
  const plainFlash = flash ? (
    <div role="status" className="fixed right-4 bottom-4 rounded-lg border border-ink-700 bg-ink-800 p-4 text-sm">
      <strong>{flash.title}</strong> {flash.description}
    </div>
  ) : null;
  return (
    <>
      <Outlet />
      {plainFlash && !staticPage ? <noscript>{plainFlash}</noscript> : plainFlash}
      {staticPage ? null : <LazyToaster />}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <ForbiddenScreen message={typeof error.data === "string" ? error.data : "Only administrators can open it."} />;
  }
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return <UnexpectedErrorScreen message={message} />;
}
