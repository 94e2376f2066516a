// Renders the toast queue with Radix Toast: 5 s, swipe right 50 px to dismiss, F8 focuses the viewport.
// On phones the stack sits below the top bar (top-12) so a toast never covers the Menu button;
// hovering a toast pauses its timer, so a covered button would stay covered.
import * as RadixToast from "@radix-ui/react-toast";
import { useSyncExternalStore } from "react";
import { TOAST_DURATION_MS, dismissToast, getServerToasts, getToasts, subscribeToasts } from "./toast-store";

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts);
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
          className={`group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:animate-out ${
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
          <RadixToast.Close aria-label="Close" className="absolute right-2 top-2 rounded p-1 text-current opacity-70 hover:opacity-100">
            <span aria-hidden>×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed right-0 top-12 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none sm:bottom-0 sm:top-auto sm:flex-col md:max-w-[420px]" />
    </RadixToast.Provider>
  );
}
