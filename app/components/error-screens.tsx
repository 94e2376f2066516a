// The app-wide error screens: 403, and the fallback for an unexpected error.
import { brand } from "../lib/brand";
import { Button } from "./ui/button";

export function ForbiddenScreen({ message }: { message: string }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{`Forbidden | ${brand.productName}`}</title>
      <p className="text-sm font-semibold text-brand-400">403</p>
      <h1 className="text-2xl font-semibold">You don't have access to this page</h1>
      <p className="text-slate-400">{message}</p>
      <a className="text-brand-400 underline" href="/studio">
        Back to Studio
      </a>
    </main>
  );
}

export function UnexpectedErrorScreen({ message }: { message: string }) {
  return (
    <main role="alert" className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{`Something went wrong | ${brand.productName}`}</title>
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-slate-400">The application encountered an unexpected error.</p>
      <pre className="max-w-full overflow-auto rounded-md bg-ink-900 p-3 text-left text-sm whitespace-pre-wrap text-red-300">{message}</pre>
      <Button onClick={() => window.location.reload()}>Reload Page</Button>
    </main>
  );
}

/** The message shown for whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  return "Unknown error";
}
