// The product mark and name, linking home.
import { PageLink } from "./page-link";
import { brand } from "../../lib/brand";

export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#111723" stroke="#273246" />
      <rect x="6" y="6" width="20" height="20" rx="3.5" fill="none" stroke="#59b7ff" strokeWidth="2.5" />
      <path d="M6 12h4M22 12h4M6 20h4M22 20h4" stroke="#59b7ff" strokeWidth="2" />
      <circle cx="16" cy="16" r="3.5" fill="#59b7ff" />
    </svg>
  );
}

export function Logo() {
  return (
    <PageLink to="/" className="flex items-center gap-2.5 rounded-md text-lg font-semibold tracking-tight text-white">
      <LogoMark />
      <span>{brand.productName}</span>
    </PageLink>
  );
}
