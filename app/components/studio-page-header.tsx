// The top bar of the studio's own pages (Insights, Timeline): back to the studio, the product's name, the page's
// Settings, who is signed in and Sign out.
import { Form, Link } from "react-router";
import { brand } from "../lib/brand";
import type { CurrentUser } from "../schemas/auth";
import { Button } from "./ui/button";
import { ChevronLeftIcon } from "./ui/icons";

export function StudioPageHeader({ user, onSettings }: { user: CurrentUser; onSettings?: (() => void) | undefined }) {
  return (
    <header className="flex h-12 items-center justify-between gap-2 border-b border-ink-700 bg-ink-900 px-3">
      <div className="flex min-w-0 items-center gap-2">
        <Link to="/studio" className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm text-slate-300 hover:bg-ink-800 hover:text-white">
          <ChevronLeftIcon /> Studio
        </Link>
        <span className="truncate font-semibold tracking-tight text-white">{brand.productName}</span>
      </div>
      <div className="flex items-center gap-1">
        <Button variant="ghost" className="px-2 py-1.5" disabled={!onSettings} onClick={onSettings}>
          Settings
        </Button>
        <span className="hidden max-w-32 truncate px-1 text-sm text-slate-400 sm:block">{user.username}</span>
        <Form method="post" action="/logout">
          <button type="submit" className="rounded-md px-2 py-1.5 text-sm whitespace-nowrap text-slate-300 hover:bg-ink-800 hover:text-white">
            Sign out
          </button>
        </Form>
      </div>
    </header>
  );
}
