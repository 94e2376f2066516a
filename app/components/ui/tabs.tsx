// Tabs (Radix Tabs): arrow keys move between tabs, the panel follows.
import * as RadixTabs from "@radix-ui/react-tabs";
import { createContext, useContext, type ReactNode } from "react";

export const TabsRoot = RadixTabs.Root;
export const TabsContent = RadixTabs.Content;

/** Whether the tabs of this list share its whole width (see TabsList's `fill`). */
const FillContext = createContext(false);

/**
 * `fill`: the tabs share the strip's width with tight padding, for a fixed-width panel whose labels must all
 * show (the side panel's five). Either way the strip scrolls sideways as a last resort (large text, zoom),
 * and a tab reached with the arrow keys is scrolled into view by its focus.
 */
export function TabsList({ label, children, className = "", fill = false }: { label: string; children: ReactNode; className?: string; fill?: boolean }) {
  return (
    <RadixTabs.List aria-label={label} className={`flex border-b border-ink-700 ${fill ? "" : "gap-1"} ${className}`}>
      <FillContext.Provider value={fill}>{children}</FillContext.Provider>
    </RadixTabs.List>
  );
}

export function Tab({ value, children }: { value: string; children: ReactNode }) {
  const fill = useContext(FillContext);
  return (
    <RadixTabs.Trigger
      value={value}
      className={`-mb-px border-b-2 border-transparent py-2 text-[13px] font-medium whitespace-nowrap text-slate-400 hover:text-white data-[state=active]:border-brand-400 data-[state=active]:text-white ${fill ? "flex-auto px-1.5" : "px-2.5"}`}
    >
      {children}
    </RadixTabs.Trigger>
  );
}
