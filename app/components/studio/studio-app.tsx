// The studio workspace: creates the one Studio (createStudio) and lays out the top bar, camera sidebar,
// preview, side panel and bottom bar (and their mobile forms). Hotkeys and buttons dispatch through the
// studio's command registry.
import { useEffect, useState } from "react";
import type { CurrentUser } from "../../schemas/auth";
import { notifier } from "../../studio/notifier";
import { createStudio } from "../../studio/studio";
import { TooltipProvider } from "../ui/tooltip";
import { AiOverlays } from "./ai/ai-overlays";
import { AiTab } from "./ai/ai-tab";
import { AssistantTab } from "./ai/assistant-tab";
import { AutoCaptureSection } from "./ai/auto-capture-section";
import { DetectionsTab } from "./ai/detections-tab";
import { AlertHost } from "./alert-host";
import { BottomBar } from "./bottom-bar";
import { CameraSidebar } from "./camera-sidebar";
import { FeatureRequestDialog } from "./feature-request-dialog";
import { HelpDialog } from "./help-dialog";
import { MobileBottomBar, MobileMenu, MobileSheets, type MobileSheet } from "./mobile";
import { Preview } from "./preview";
import { PanelTabs, SidePanel, type PanelTab, type SidePanelSlots } from "./side-panel";
import { StudioContext, useStore } from "./studio-context";
import { TopBar } from "./top-bar";

/** The side panel's tabs' content, on the desktop and in the phone's AI sheet. */
const PANEL_SLOTS: SidePanelSlots = {
  ai: <AiTab />,
  detections: <DetectionsTab />,
  assistant: <AssistantTab />,
  automate: <AutoCaptureSection />,
};
/** The phone's AI sheet: every panel tab but Settings, whose parts are in the settings menu and the PTZ sheet. */
const PHONE_TABS: PanelTab[] = ["ai", "detections", "assistant", "automate"];

export function StudioApp({ user }: { user: CurrentUser }) {
  // The studio lives as long as the page: a revalidated user object does not rebuild it.
  const [make] = useState(() => () => createStudio({ notify: notifier, user }));
  const [studio, setStudio] = useState(make);
  const { view } = studio;
  const dialog = useStore(view.store, (s) => s.dialog);
  const [menuOpen, setMenuOpen] = useState(false);
  const [sheet, setSheet] = useState<MobileSheet>(null);

  useEffect(() => {
    // React's StrictMode (development) runs this effect, its cleanup, then the effect again on the same studio:
    // a disposed studio is replaced, and the new one starts when this effect runs for it.
    if (studio.disposed) return setStudio(make);
    void studio.start();
    return () => studio.dispose();
  }, [studio, make]);

  return (
    <StudioContext.Provider value={studio}>
      <TooltipProvider>
        <div className="flex h-dvh flex-col overflow-hidden" data-testid="studio">
          <TopBar user={user} onMobileMenu={() => setMenuOpen(true)} />
          <div className="flex min-h-0 flex-1">
            <CameraSidebar />
            {/* On a phone the preview stands above the bottom bar and the open sheet (see mobile.tsx). */}
            <main className="flex min-w-0 flex-1 flex-col pb-[calc(max(3.5rem,var(--toast-clearance,0px))+var(--mobile-sheet-height,0px))] lg:pb-0">
              <div ref={(element) => view.setFullscreenTarget(element)} className="min-h-0 flex-1">
                <Preview overlays={<AiOverlays />} />
              </div>
              <BottomBar />
            </main>
            <SidePanel slots={PANEL_SLOTS} />
          </div>
          <MobileBottomBar sheet={sheet} onSheet={setSheet} />
          <MobileSheets sheet={sheet} onSheet={setSheet} panel={<PanelTabs slots={PANEL_SLOTS} tabs={PHONE_TABS} panelClassName="space-y-6 pt-4 focus:outline-none" />} />
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} ai={<AiTab />} automate={<AutoCaptureSection />} />
        </div>
        <HelpDialog open={dialog === "help"} onOpenChange={(open) => view.openDialog(open ? "help" : null)} />
        <FeatureRequestDialog open={dialog === "feature-request"} onOpenChange={(open) => view.openDialog(open ? "feature-request" : null)} />
        <AlertHost />
      </TooltipProvider>
    </StudioContext.Provider>
  );
}
