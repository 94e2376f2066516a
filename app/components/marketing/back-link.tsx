// The 'Back' button of the inner pages, to the home page.
import { PageLink } from "./page-link";
import { buttonClass } from "../ui/button";
import { ArrowLeftIcon } from "./icons";

export function BackLink({ className = "" }: { className?: string }) {
  return (
    <PageLink to="/" className={buttonClass("ghost", `-ml-3 ${className}`)}>
      <ArrowLeftIcon className="h-4 w-4" />
      Back
    </PageLink>
  );
}
