// Modal dialogs (Radix Dialog): focus trapped, Escape closes, labelled by their title.
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  size = "md",
  role,
  onEscapeKeyDown,
  onOpenAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  size?: "sm" | "md" | "lg" | "xl";
  role?: "dialog" | "alertdialog";
  /** Lets a field inside (e.g. an inline rename) use Escape itself: call event.preventDefault(). */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  /** Where focus goes on opening (call event.preventDefault() and focus it); else the first focusable element. */
  onOpenAutoFocus?: (event: Event) => void;
}) {
  const width = { sm: "max-w-sm", md: "max-w-md", lg: "max-w-2xl", xl: "max-w-5xl" }[size];
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <RadixDialog.Content
          {...(role ? { role } : {})}
          onEscapeKeyDown={onEscapeKeyDown}
          onOpenAutoFocus={onOpenAutoFocus}
          {...(description ? {} : { "aria-describedby": undefined })}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-ink-700 bg-ink-900 p-5 shadow-2xl focus:outline-none`}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-white">{title}</RadixDialog.Title>
              {description ? <RadixDialog.Description className="mt-1 text-sm text-slate-400">{description}</RadixDialog.Description> : null}
            </div>
            <RadixDialog.Close aria-label="Close" className="rounded p-1 text-slate-400 hover:bg-ink-800 hover:text-white">
              <span aria-hidden>✕</span>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
