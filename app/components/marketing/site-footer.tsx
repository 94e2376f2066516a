// The footer of every public page: site links (About, Downloads, Terms…) and the parent-company credit.
import { PageLink } from "./page-link";
import { brand } from "../../lib/brand";
import { LogoMark } from "./logo";

const COLUMNS = [
  {
    heading: "Product",
    links: [
      { to: "/pricing", label: "Pricing" },
      { to: "/downloads", label: "Downloads" },
      { to: "/signup", label: "Create account" },
    ],
  },
  {
    heading: "Company",
    links: [
      { to: "/about", label: "About" },
      { to: "/contact", label: "Contact" },
      { to: "/eula", label: "Terms" },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-ink-800 bg-ink-950">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr]">
        <div className="col-span-2 max-w-sm md:col-span-1">
          <p className="flex items-center gap-2.5 text-lg font-semibold text-white">
            <LogoMark className="h-7 w-7" />
            {brand.productName}
          </p>
          <p className="mt-3 text-sm leading-6 text-slate-400">
            An experimental collaboration between {brand.cameraPartner} and {brand.visionPartner}, bringing open-source vision AI to any camera.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.heading} aria-label={column.heading}>
            <h2 className="text-sm font-semibold text-white">{column.heading}</h2>
            <ul className="mt-3 space-y-1">
              {column.links.map((link) => (
                <li key={link.to}>
                  <PageLink to={link.to} className="inline-block rounded py-1.5 text-sm text-slate-400 hover:text-white">
                    {link.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-ink-800">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-slate-400 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>
            © {new Date().getFullYear()} {brand.productName}. All rights reserved.
          </p>
          <p>{brand.parentCompanyCredit}</p>
        </div>
      </div>
    </footer>
  );
}
