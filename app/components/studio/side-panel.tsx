// The right panel's five tabs. AI, Detections and Assistant are filled by the studio AI work; Automate
// holds the capture settings here; Settings holds, in the spec's order, video, PTZ with its exposure
// controls, and the visual overlays.
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

function Pending({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-400">{children}</p>;
}

export function SidePanel({ slots = {} }: { slots?: SidePanelSlots }) {
  const panel = "min-h-0 flex-1 space-y-6 overflow-y-auto p-4 focus:outline-none";
  return (
    <aside className="hidden w-[22rem] shrink-0 flex-col border-l border-ink-700 bg-ink-900/60 lg:flex" aria-label="Studio panel">
      <TabsRoot defaultValue="ai" className="flex min-h-0 flex-1 flex-col">
        <TabsList label="Studio panel" fill className="overflow-x-auto px-1">
          <Tab value="ai">AI</Tab>
          <Tab value="detections">Detections</Tab>
          <Tab value="assistant">Assistant</Tab>
          <Tab value="automate">Automate</Tab>
          <Tab value="settings">Settings</Tab>
        </TabsList>
        <TabsContent value="ai" className={panel}>
          {slots.ai ?? <Pending>AI analysis needs the vision service, which this server doesn't offer yet.</Pending>}
        </TabsContent>
        <TabsContent value="detections" className={panel}>
          {slots.detections ?? <Pending>Point and box detection need the vision service, which this server doesn't offer yet.</Pending>}
        </TabsContent>
        <TabsContent value="assistant" className={panel}>
          {slots.assistant ?? <Pending>The camera assistant needs the vision service, which this server doesn't offer yet.</Pending>}
        </TabsContent>
        <TabsContent value="automate" className={panel}>
          <section className="space-y-3">
            <h3 className="text-sm font-semibold text-white">Capture mode</h3>
            <CaptureModeButtons />
            <CaptureSettingsFields layout="panel" />
          </section>
          <AutomationSection />
          {slots.automate}
        </TabsContent>
        <TabsContent value="settings" className={panel}>
          <VideoSettings />
          <PtzPanel />
          <OverlaySettings />
          {slots.settings}
        </TabsContent>
      </TabsRoot>
    </aside>
  );
}
