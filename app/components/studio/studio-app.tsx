// The studio workspace: creates the engine once, wires hotkeys through the command registry, lays out
// the top bar, camera sidebar, preview, side panel and bottom bar (and their mobile forms).
import { useEffect, useRef, useState } from "react";
import type { CurrentUser } from "../../schemas/auth";
import { AiEngine } from "../../studio/ai/ai-engine";
import { CommandRegistry } from "../../studio/commands";
import { notifier } from "../../studio/notifier";
import { disposePtzController } from "../../studio/ptz-controller";
import { ptzControllerFor, ptzHotkeys } from "../../studio/ptz-controller";
import { StudioEngine } from "../../studio/studio-engine";
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
import { SidePanel } from "./side-panel";
import { AiContext, StudioContext } from "./studio-context";
import { TopBar } from "./top-bar";

export function StudioApp({ user }: { user: CurrentUser }) {
  const [engine] = useState(() => new StudioEngine(notifier));
  const [ai] = useState(() => new AiEngine(engine, notifier, user));
  const [commands] = useState(() => new CommandRegistry());
  const previewBox = useRef<HTMLDivElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [featureOpen, setFeatureOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [sheet, setSheet] = useState<MobileSheet>(null);

  useEffect(() => {
    void engine.start();
    // Whether today's free pool is spent, before any AI call is made (the AI tab says so).
    if (!user.hasMoondreamApiKey) void ai.account.refresh();
    return () => {
      ai.dispose();
      disposePtzController(engine);
      engine.dispose();
    };
  }, [engine, ai]); // eslint-disable-line react-hooks/exhaustive-deps -- once per engine: the user is the page's

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void previewBox.current?.requestFullscreen?.().catch(() => {});
  };

  useEffect(() => {
    const offs = [
      commands.register({ id: "fullscreen", label: "Toggle fullscreen", keys: ["f", "F"], run: toggleFullscreen }),
      commands.register({ id: "help", label: "Help", keys: ["?"], run: () => setHelpOpen(true) }),
      commands.register({ id: "grid", label: "Rule of thirds", keys: [], run: () => engine.toggleGrid() }),
      commands.register({ id: "capture", label: "Capture", keys: [], run: () => engine.capture() }),
      ...ptzHotkeys(ptzControllerFor(engine, notifier)).map((command) => commands.register(command)),
    ];
    const down = (event: KeyboardEvent) => commands.handleKeyDown(event);
    const up = (event: KeyboardEvent) => commands.handleKeyUp(event);
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    return () => {
      offs.forEach((off) => off());
      ptzControllerFor(engine, notifier).release();
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
    };
  }, [commands, engine]);

  return (
    <StudioContext.Provider value={engine}>
      <AiContext.Provider value={ai}>
        <TooltipProvider>
          <div className="flex h-dvh flex-col overflow-hidden" data-testid="studio">
            <TopBar user={user} onFullscreen={toggleFullscreen} onFeatureRequest={() => setFeatureOpen(true)} onHelp={() => setHelpOpen(true)} onMobileMenu={() => setMenuOpen(true)} />
            <div className="flex min-h-0 flex-1">
              <CameraSidebar />
              <main className="flex min-w-0 flex-1 flex-col pb-[max(3.5rem,var(--toast-clearance,0px))] lg:pb-0">
                <div ref={previewBox} className="min-h-0 flex-1">
                  <Preview overlays={<AiOverlays />} />
                </div>
                <BottomBar />
              </main>
              <SidePanel
                slots={{
                  ai: <AiTab />,
                  detections: <DetectionsTab />,
                  assistant: <AssistantTab />,
                  automate: <AutoCaptureSection />,
                }}
              />
            </div>
            <MobileBottomBar sheet={sheet} onSheet={setSheet} />
            <MobileSheets sheet={sheet} onSheet={setSheet} ai={<AiTab />} />
            <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} ai={<AiTab />} automate={<AutoCaptureSection />} />
          </div>
          <HelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
          <FeatureRequestDialog open={featureOpen} onOpenChange={setFeatureOpen} />
          <AlertHost />
        </TooltipProvider>
      </AiContext.Provider>
    </StudioContext.Provider>
  );
}
