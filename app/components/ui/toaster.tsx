// Renders the toast queue with Radix Toast: 5 s, swipe right 50 px to dismiss, F8 focuses the viewport.
// Desktop (lg and up): bottom right. Smaller screens: a full-width stack at the bottom, above whatever
// the page sets as `--toast-bottom` (the studio's bottom bar); while a toast shows, the distance from the
// bottom of the window to the top of the stack is published as `--toast-clearance`, so the studio's phone
// layout keeps its controls above it and a toast covers none. There a tap outside it and off any control
// dismisses it (a tap on a control just does its job: the toast is in nobody's way).
import * as RadixToast from "@radix-ui/react-toast";
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { TOAST_DURATION_MS, dismissToast, getServerToasts, getToasts, subscribeToasts } from "./toast-store";

/** Tailwind's lg breakpoint: the width from which the studio shows its desktop layout. */
const DESKTOP = "(min-width: 1024px)";
export const TOAST_CLEARANCE_VAR = "--toast-clearance";
const CONTROLS =
  'button, a[href], input, select, textarea, label, summary, [role="button"], [role="tab"], [role="menuitem"], [role="option"], [role="slider"], [role="switch"], [role="radio"], [role="checkbox"]';

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts);
  const viewport = useRef<HTMLOListElement>(null);
  const showing = toasts.some((t) => t.open);

  // How far up from the bottom the stack reaches while it holds a toast (0 when empty): layouts keep clear of it.
  useLayoutEffect(() => {
    const list = viewport.current;
    if (!list) return;
    const root = document.documentElement.style;
    const publish = () => {
      const clearance = list.querySelector("li") ? Math.ceil(window.innerHeight - list.getBoundingClientRect().top) : 0;
      root.setProperty(TOAST_CLEARANCE_VAR, `${Math.max(0, clearance)}px`);
    };
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(list);
    window.addEventListener("resize", publish);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", publish);
      root.removeProperty(TOAST_CLEARANCE_VAR);
    };
  }, []);

  // Small screens: a tap outside the toast, off any control, dismisses it. On click, not pointerdown, so
  // the layout doesn't move (the toast's lane closing) under a finger that is still down.
  useEffect(() => {
    if (!showing) return;
    const outside = (event: MouseEvent) => {
      if (window.matchMedia(DESKTOP).matches || !(event.target instanceof Element)) return;
      if (viewport.current?.contains(event.target) || event.target.closest(CONTROLS)) return;
      for (const t of getToasts()) if (t.open) dismissToast(t.id);
    };
    document.addEventListener("click", outside, true);
    return () => document.removeEventListener("click", outside, true);
  }, [showing]);

  return (
    <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          // A toast with a link asks the person to do something: it stays long enough to follow it.
          duration={t.link ? TOAST_DURATION_MS * 3 : undefined}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          data-variant={t.variant ?? "default"}
          className={`group data-[swipe=end]:animate-out pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] ${
            t.variant === "destructive" ? "border-red-700 bg-red-900 text-red-50" : "border-ink-700 bg-ink-800 text-slate-100"
          }`}
        >
          <div className="grid gap-1">
            <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>
            {t.description ? <RadixToast.Description className="text-sm opacity-90">{t.description}</RadixToast.Description> : null}
            {t.link ? (
              <a href={t.link.href} target="_blank" rel="noopener noreferrer" className="text-sm font-medium underline">
                {t.link.label}
              </a>
            ) : null}
          </div>
          <RadixToast.Close aria-label="Close" className="absolute top-2 right-2 rounded p-1 text-current opacity-70 hover:opacity-100">
            <span aria-hidden>×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport
        ref={viewport}
        className="fixed right-0 bottom-[var(--toast-bottom,0px)] left-0 z-[100] flex max-h-screen w-full flex-col gap-2 px-3 py-2 outline-none lg:bottom-0 lg:left-auto lg:max-w-[420px] lg:p-4"
      />
    </RadixToast.Provider>
  );
}
