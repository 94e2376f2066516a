// The top bar of every public page: the logo, the page links and, on small screens, a menu toggle
// that shows the same links (rendered closed; the page script's menu.ts opens and closes it).
import { useLocation } from "react-router";
import { buttonClass } from "../ui/button";
import { CloseIcon, MenuIcon } from "./icons";
import { Logo } from "./logo";
import { PageLink } from "./page-link";
import { menuLabel } from "./view-states";

interface NavItem {
  to: string;
  label: string;
}

const SITE_LINKS: NavItem[] = [
  { to: "/pricing", label: "Pricing" },
  { to: "/downloads", label: "Downloads" },
];
const HOME_LINK: NavItem = { to: "/", label: "Home" };
const LOG_IN: NavItem = { to: "/login", label: "Log In" };
const SIGN_UP: NavItem = { to: "/signup", label: "Sign Up" };

const barLinkClass = (isActive: boolean) => `rounded-md px-3 py-2 text-sm font-medium transition-colors ${isActive ? "text-white" : "text-slate-300 hover:text-white"}`;
const menuLinkClass = (isActive: boolean) => `block rounded-md px-3 py-3 text-base font-medium ${isActive ? "bg-ink-800 text-white" : "text-slate-200 hover:bg-ink-900"}`;

/** The home page's bar links Pricing, Downloads, Log In and Sign Up; the other pages add Home. */
export function SiteHeader({ showHomeLink = true }: { showHomeLink?: boolean }) {
  const pageLinks = showHomeLink ? [HOME_LINK, ...SITE_LINKS] : SITE_LINKS;
  const { pathname } = useLocation();
  const current = (item: NavItem) => (item.to === pathname ? "page" : undefined);

  return (
    <header className="sticky top-0 z-40 border-b border-ink-800 bg-ink-950/85 backdrop-blur supports-[backdrop-filter]:bg-ink-950/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {pageLinks.map((item) => (
            <PageLink key={item.to} to={item.to} aria-current={current(item)} className={barLinkClass(item.to === pathname)}>
              {item.label}
            </PageLink>
          ))}
          <span className="mx-2 h-5 w-px bg-ink-700" aria-hidden="true" />
          <PageLink to={LOG_IN.to} className={barLinkClass(false)}>
            {LOG_IN.label}
          </PageLink>
          <PageLink to={SIGN_UP.to} className={buttonClass("primary", "ml-1")}>
            {SIGN_UP.label}
          </PageLink>
        </nav>
        <button
          type="button"
          data-menu-toggle
          className="-mr-2 inline-flex h-11 w-11 items-center justify-center rounded-md text-slate-200 hover:bg-ink-800 md:hidden"
          aria-expanded={false}
          aria-controls="mobile-menu"
        >
          <MenuIcon className="h-6 w-6" data-when-closed />
          <CloseIcon className="h-6 w-6" data-when-open hidden />
          <span className="sr-only">{menuLabel(false)}</span>
        </button>
      </div>
      <nav id="mobile-menu" aria-label="Main" hidden className="border-t border-ink-800 bg-ink-950 px-4 pt-3 pb-5 md:hidden">
        <ul className="space-y-1">
          {[...pageLinks, LOG_IN].map((item) => (
            <li key={item.to}>
              <PageLink to={item.to} aria-current={current(item)} className={menuLinkClass(item.to === pathname)}>
                {item.label}
              </PageLink>
            </li>
          ))}
        </ul>
        <PageLink to={SIGN_UP.to} className={buttonClass("primary", "mt-3 w-full py-3 text-base")}>
          {SIGN_UP.label}
        </PageLink>
      </nav>
    </header>
  );
}
