// The studio's top bar: product name, fullscreen, rule-of-thirds, feature request, help (those four are
// commands), the Insights page, account menu.
import { Form, Link } from "react-router";
import type { CurrentUser } from "../../schemas/auth";
import { brand } from "../../lib/brand";
import { MenuIcon } from "../ui/icons";
import { IconButton } from "../ui/icon-button";
import { CommandIconButton } from "./command-controls";

export function TopBar({ user, onMobileMenu }: { user: CurrentUser; onMobileMenu: () => void }) {
  return (
    <header className="flex h-12 shrink-0 items-center justify-between gap-2 border-b border-ink-700 bg-ink-900 px-3">
      <div className="flex items-center gap-2">
        <IconButton label="Menu" className="lg:hidden" onClick={onMobileMenu}>
          <MenuIcon />
        </IconButton>
        <Link to="/" className="font-semibold tracking-tight text-white">
          {brand.productName}
        </Link>
        <span className="hidden text-xs text-slate-500 sm:inline">Studio</span>
      </div>
      <div className="flex items-center gap-1">
        {["fullscreen", "grid", "feature-request", "help"].map((id) => (
          <CommandIconButton key={id} id={id} />
        ))}
        <span className="mx-1 hidden h-6 w-px bg-ink-700 sm:block" />
        {/* On a phone the bar is full: the Insights and Timeline links are in the menu's sheet there (./mobile.tsx). */}
        <Link to="/studio/insights" className="hidden rounded-md px-2 py-1.5 text-sm text-slate-300 hover:bg-ink-800 hover:text-white sm:block">
          Insights
        </Link>
        <Link to="/studio/timeline" className="hidden rounded-md px-2 py-1.5 text-sm text-slate-300 hover:bg-ink-800 hover:text-white sm:block">
          Timeline
        </Link>
        {user.role === "admin" ? (
          <Link to="/admin" className="hidden rounded-md px-2 py-1.5 text-sm text-slate-300 hover:bg-ink-800 hover:text-white sm:block">
            Admin
          </Link>
        ) : null}
        <span className="hidden max-w-32 truncate px-1 text-sm text-slate-400 sm:block" data-testid="signed-in-user">
          {user.username}
        </span>
        <Form method="post" action="/logout">
          <button type="submit" className="rounded-md px-2 py-1.5 text-sm whitespace-nowrap text-slate-300 hover:bg-ink-800 hover:text-white">
            Sign out
          </button>
        </Form>
      </div>
    </header>
  );
}
