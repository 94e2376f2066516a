// The right panel's five tabs (PanelTabs), on the desktop beside the preview; the phone's AI sheet shows the same
// tabs but Settings (its pieces are in the phone's settings menu and PTZ sheet). AI, Detections and Assistant are
// filled by the studio AI work; Automate holds the capture settings here; Settings holds, in the spec's order,
// video, PTZ with its exposure controls, and the visual overlays.
import type { ReactNode } from "react";
import { Tab, TabsContent, TabsList, TabsRoot } from "../ui/tabs";
import { AutomationSection } from "./automation/automation-section";
import { CaptureModeButtons, CaptureSettingsFields } from "./capture-controls";
import { OverlaySettings } from "./overlay-settings";
import { PtzPanel } from "./ptz-panel";
import { VideoSettings } from "./video-settings";

export interface SidePanelSlots {
  ai?: ReactNode;
  detections?: ReactNode;
  assistant?: ReactNode;
  automate?: ReactNode;
  settings?: ReactNode;
}

export type PanelTab = keyof SidePanelSlots;

const TAB_NAMES: Record<PanelTab, string> = { ai: "AI", detections: "Detections", assistant: "Assistant", automate: "Automate", settings: "Settings" };
const ALL_TABS = Object.keys(TAB_NAMES) as PanelTab[];

function Pending({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-400">{children}</p>;
}

function TabBody({ tab, slots }: { tab: PanelTab; slots: SidePanelSlots }) {
  switch (tab) {
    case "ai":
      return slots.ai ?? <Pending>AI analysis needs the vision service, which this server doesn't offer yet.</Pending>;
    case "detections":
      return slots.detections ?? <Pending>Point and box detection need the vision service, which this server doesn't offer yet.</Pending>;
    case "assistant":
      return slots.assistant ?? <Pending>The camera assistant needs the vision service, which this server doesn't offer yet.</Pending>;
    case "automate":
      return (
        <>
          <section className="space-y-3">
            <h3 className="text-sm font-semibold text-white">Capture mode</h3>
            <CaptureModeButtons />
            <CaptureSettingsFields layout="panel" />
          </section>
          <AutomationSection />
          {slots.automate}
        </>
      );
    case "settings":
      return (
        <>
          <VideoSettings />
          <PtzPanel />
          <OverlaySettings />
          {slots.settings}
        </>
      );
  }
}

/** The panel's tab strip and the chosen tab's content; `panelClassName` lays out each tab's content. */
export function PanelTabs({ slots = {}, tabs = ALL_TABS, panelClassName }: { slots?: SidePanelSlots; tabs?: PanelTab[]; panelClassName: string }) {
  return (
    <TabsRoot defaultValue="ai" className="flex min-h-0 flex-1 flex-col">
      {/* Sticky in the phone's sheet, which scrolls as a whole; the desktop panel scrolls only the content. */}
      <TabsList label="Studio panel" fill className="overflow-x-auto px-1 max-lg:sticky max-lg:top-0 max-lg:z-10 max-lg:bg-ink-900">
        {tabs.map((tab) => (
          <Tab key={tab} value={tab}>
            {TAB_NAMES[tab]}
          </Tab>
        ))}
      </TabsList>
      {tabs.map((tab) => (
        <TabsContent key={tab} value={tab} className={panelClassName}>
          <TabBody tab={tab} slots={slots} />
        </TabsContent>
      ))}
    </TabsRoot>
  );
}

export function SidePanel({ slots = {} }: { slots?: SidePanelSlots }) {
  return (
    <aside className="hidden w-[22rem] shrink-0 flex-col border-l border-ink-700 bg-ink-900/60 lg:flex" aria-label="Studio panel">
      <PanelTabs slots={slots} panelClassName="min-h-0 flex-1 space-y-6 overflow-y-auto p-4 focus:outline-none" />
    </aside>
  );
}
