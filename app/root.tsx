// The document shell: head, nonce'd scripts, the toast viewport, and the app-wide error screens.
import { useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { getUser } from "../server/accounts/sessions";
import { takeFlash } from "../server/http/flash";
import type { Route } from "./+types/root";
import "./app.css";
import { Button } from "./components/ui/button";
import { toast } from "./components/ui/toast-store";
import { Toaster } from "./components/ui/toaster";
import { brand } from "./lib/brand";
import { useNonce } from "./lib/nonce";
import { NotFound } from "./routes/not-found";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, flash] = await Promise.all([getUser(request), takeFlash(request)]);
  return data({ user, toast: flash.toast }, flash.clear ? { headers: { "Set-Cookie": flash.clear } } : undefined);
}

export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
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
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const flash = loaderData.toast;
  useEffect(() => {
    if (flash) toast(flash);
  }, [flash]);
  return (
    <>
      <Outlet />
      {flash ? (
        <noscript>
          <div role="status" className="fixed bottom-4 right-4 rounded-lg border border-ink-700 bg-ink-800 p-4 text-sm">
            <strong>{flash.title}</strong> {flash.description}
          </div>
        </noscript>
      ) : null}
      <Toaster />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
        <title>{`Forbidden | ${brand.productName}`}</title>
        <p className="text-sm font-semibold text-brand-400">403</p>
        <h1 className="text-2xl font-semibold">You don't have access to this page</h1>
        <p className="text-slate-400">{typeof error.data === "string" ? error.data : "Only administrators can open it."}</p>
        <a className="text-brand-400 underline" href="/studio">
          Back to Studio
        </a>
      </main>
    );
  }
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : "Unknown error";
  return (
    <main role="alert" className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{`Something went wrong | ${brand.productName}`}</title>
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-slate-400">The application encountered an unexpected error.</p>
      <pre className="max-w-full overflow-auto rounded-md bg-ink-900 p-3 text-left text-sm text-red-300">{message}</pre>
      <Button onClick={() => window.location.reload()}>Reload Page</Button>
    </main>
  );
}
