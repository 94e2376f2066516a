// Links of the public pages: plain anchors. These pages have no client router in the browser (see
// static-page.ts), so React Router's <Link> would render the same <a href> while costing server render time
// (about a tenth of rendering / in a CPU profile).
import type { AnchorHTMLAttributes } from "react";
import { buttonClass } from "../ui/button";

type PageLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string };

export function PageLink({ to, ...props }: PageLinkProps) {
  return <a href={to} {...props} />;
}

export function ButtonPageLink({ variant = "primary", className = "", ...props }: PageLinkProps & { variant?: Parameters<typeof buttonClass>[0] }) {
  return <PageLink className={buttonClass(variant, className)} {...props} />;
}
