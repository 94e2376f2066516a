// Tabs (Radix Tabs): arrow keys move between tabs, the panel follows.
import * as RadixTabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

export const TabsRoot = RadixTabs.Root;
export const TabsContent = RadixTabs.Content;

export function TabsList({ label, children, className = "" }: { label: string; children: ReactNode; className?: string }) {
  return (
    <RadixTabs.List aria-label={label} className={`flex gap-1 border-b border-ink-700 ${className}`}>
      {children}
    </RadixTabs.List>
  );
}

export function Tab({ value, children }: { value: string; children: ReactNode }) {
  return (
    <RadixTabs.Trigger
      value={value}
      className="-mb-px whitespace-nowrap border-b-2 border-transparent px-2.5 py-2 text-[13px] font-medium text-slate-400 hover:text-white data-[state=active]:border-brand-400 data-[state=active]:text-white"
    >
      {children}
    </RadixTabs.Trigger>
  );
}
