// A square button that shows an icon and names itself for screen readers (and in a tooltip).
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Tooltip } from "./tooltip";

export function IconButton({
  label,
  children,
  className = "",
  pressed,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; children: ReactNode; pressed?: boolean }) {
  return (
    <Tooltip content={label}>
      <button
        type="button"
        aria-label={label}
        aria-pressed={pressed}
        className={`inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-slate-300 hover:bg-ink-800 hover:text-white disabled:opacity-50 aria-pressed:bg-ink-700 aria-pressed:text-white ${className}`}
        {...props}
      >
        {children}
      </button>
    </Tooltip>
  );
}
