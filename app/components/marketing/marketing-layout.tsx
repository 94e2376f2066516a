// The frame of every public page: skip link, top bar, content and footer. Public pages are server HTML
// without React in the browser (see static-page.ts); the page script makes their controls work.
import type { ReactNode } from "react";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

// Without JavaScript nothing would ever reveal the staged animation steps, so show their end state.
const NO_SCRIPT_CSS = "[data-staged]{visibility:visible!important;opacity:1!important}";

export function MarketingLayout({ children, showHomeLink = true }: { children: ReactNode; showHomeLink?: boolean }) {
  // The page script sets this to "true" once the page's controls respond (browser tests wait for it).
  return (
    <div className="flex min-h-screen flex-col" data-enhanced="false">
      <a href="#main" className="sr-only z-50 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-4">
        Skip to content
      </a>
      <SiteHeader showHomeLink={showHomeLink} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <noscript>
        <style>{NO_SCRIPT_CSS}</style>
      </noscript>
    </div>
  );
}

/** The eyebrow, heading and lead that open a section. */
export function SectionHeading({ id, eyebrow, title, lead, align = "center" }: { id: string; eyebrow: string; title: ReactNode; lead?: ReactNode; align?: "center" | "start" }) {
  return (
    <div className={align === "center" ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      <p className="text-sm font-semibold tracking-[0.18em] text-brand-400 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
        {title}
      </h2>
      {lead ? <p className="mt-4 text-lg leading-8 text-slate-300">{lead}</p> : null}
    </div>
  );
}

/** The heading block at the top of an inner page. */
export function PageIntro({ eyebrow, title, lead, children }: { eyebrow: string; title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <div className="relative overflow-hidden border-b border-ink-800">
      <div className="hero-glow pointer-events-none absolute inset-0" aria-hidden="true" />
      <div className="relative mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20">
        <p className="text-sm font-semibold tracking-[0.18em] text-brand-400 uppercase">{eyebrow}</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-white sm:text-5xl">{title}</h1>
        {lead ? <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-slate-300">{lead}</p> : null}
        {children}
      </div>
    </div>
  );
}
