// The toast viewport, loaded the first time a toast is raised: most page views never show one, so Radix
// Toast (about 13 KB gzipped) stays out of every page's initial JavaScript.
import { lazy, Suspense, useSyncExternalStore } from "react";
import { getServerToasts, getToasts, subscribeToasts } from "./toast-store";

const Toaster = lazy(() => import("./toaster").then((module) => ({ default: module.Toaster })));

const hasToasts = () => getToasts().length > 0;
const noToastsOnServer = () => getServerToasts().length > 0;

export function LazyToaster() {
  const needed = useSyncExternalStore(subscribeToasts, hasToasts, noToastsOnServer);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
