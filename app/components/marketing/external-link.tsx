// A link that leaves the site: opens in a new tab without handing the new page a reference to this one.
import type { AnchorHTMLAttributes } from "react";
import { ExternalLinkIcon } from "./icons";

export function ExternalLink({ children, className, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a target="_blank" rel="noopener noreferrer" className={className} {...props}>
      {children}
      <ExternalLinkIcon className="h-4 w-4" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
