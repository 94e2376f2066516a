// Small screens: a bottom bar (Capture, Photos, AI, PTZ — opening one closes the others), their sheets, and
// the full-screen settings menu.
import * as RadixDialog from "@radix-ui/react-dialog";
import { type ReactNode, useEffect, useState } from "react";
import { Link } from "react-router";
import type { CaptureMode } from "../../schemas/photos";
import { CameraIcon, ImageIcon, JoystickIcon, SparklesIcon } from "../ui/icons";
import { Tab, TabsContent, TabsList, TabsRoot } from "../ui/tabs";
import { AddCameraMenu } from "./add-camera-menu";
import { CameraList } from "./camera-sidebar";
import { CaptureButton, CaptureSettingsFields } from "./capture-controls";
import { PeopleCountTab } from "./people-count-tab";
import { PhotoSearch } from "./photo-search";
import { PtzPanel } from "./ptz-panel";
import { StoriesTab } from "./stories-tab";
import { useStudio, useStore } from "./studio-context";
import { OverlaySettings } from "./overlay-settings";
import { VideoSettings } from "./video-settings";

export type MobileSheet = "capture" | "photos" | "ai" | "ptz" | null;

/** The open sheet's height, published for the studio's layout: the preview shrinks to the space above the sheet. */
const SHEET_HEIGHT_VAR = "--mobile-sheet-height";

function usePublishedHeight(element: HTMLElement | null) {
  useEffect(() => {
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty(SHEET_HEIGHT_VAR, `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty(SHEET_HEIGHT_VAR);
    };
  }, [element]);
}

/**
 * A bottom sheet at most 45 % of the screen high (`tall`: always that high, so switching its tabs doesn't move the
 * picture). The preview lays itself out above it, so the whole picture stays in view — to draw zones and lines on,
 * or watch what detection finds; Minimise folds the sheet to its title for more picture.
 */
function Sheet({ open, onClose, title, tall = false, children }: { open: boolean; onClose: () => void; title: string; tall?: boolean; children: ReactNode }) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [minimised, setMinimised] = useState(false);
  usePublishedHeight(open ? element : null);
  return (
    // Not modal: the bottom bar stays usable to switch sheets (opening one closes the others), and the picture
    // above stays usable (drawing zones and lines, dragging their points).
    <RadixDialog.Root open={open} onOpenChange={(o) => !o && onClose()} modal={false}>
      <RadixDialog.Portal>
        <RadixDialog.Content
          ref={setElement}
          aria-describedby={undefined}
          onInteractOutside={(event) => event.preventDefault()}
          className={`fixed inset-x-0 bottom-[max(3.5rem,var(--toast-clearance,0px))] z-40 flex max-h-[45dvh] flex-col rounded-t-2xl border-t border-ink-700 bg-ink-900 lg:hidden ${tall && !minimised ? "h-[45dvh]" : ""}`}
        >
          <div className="flex items-center justify-between px-4 pt-3 pb-2">
            <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
            <div className="flex items-center gap-1">
              <button
                type="button"
                aria-expanded={!minimised}
                aria-label={minimised ? `Expand ${title}` : `Minimise ${title}`}
                onClick={() => setMinimised((m) => !m)}
                className="rounded p-1 text-slate-400 hover:text-white"
              >
                {minimised ? "▴" : "▾"}
              </button>
              <RadixDialog.Close aria-label="Close" className="rounded p-1 text-slate-400 hover:text-white">
                ✕
              </RadixDialog.Close>
            </div>
          </div>
          {/* Hidden, not unmounted, when minimised: what the user was editing stays as it was. */}
          <div className={`min-h-0 flex-1 overflow-y-auto px-4 pb-4 ${minimised ? "hidden" : ""}`}>{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The bottom bar's height: toasts stand above it (the toaster reads `--toast-bottom`). */
const BOTTOM_BAR_HEIGHT = "3.5rem";

export function MobileBottomBar({ sheet, onSheet }: { sheet: MobileSheet; onSheet: (sheet: MobileSheet) => void }) {
  useEffect(() => {
    const root = document.documentElement.style;
    root.setProperty("--toast-bottom", BOTTOM_BAR_HEIGHT);
    return () => {
      root.removeProperty("--toast-bottom");
    };
  }, []);
  const item = (value: Exclude<MobileSheet, null>, label: string, icon: ReactNode) => (
    <button
      type="button"
      aria-pressed={sheet === value}
      onClick={() => onSheet(sheet === value ? null : value)}
      className="flex flex-1 flex-col items-center gap-0.5 py-2 text-xs text-slate-300 aria-pressed:text-brand-400"
    >
      {icon}
      {label}
    </button>
  );
  return (
    <nav className="fixed inset-x-0 bottom-0 z-50 flex h-14 border-t border-ink-700 bg-ink-900 lg:hidden" aria-label="Studio (mobile)">
      {item("capture", "Capture", <CameraIcon />)}
      {item("photos", "Photos", <ImageIcon />)}
      {item("ai", "AI", <SparklesIcon />)}
      {item("ptz", "PTZ", <JoystickIcon />)}
    </nav>
  );
}

/** `panel`: the AI sheet's content, the desktop side panel's tabs (see PanelTabs). */
export function MobileSheets({ sheet, onSheet, panel }: { sheet: MobileSheet; onSheet: (sheet: MobileSheet) => void; panel: ReactNode }) {
  const close = () => onSheet(null);
  return (
    <>
      <Sheet open={sheet === "capture"} onClose={close} title="Capture Controls">
        <CaptureSheet />
      </Sheet>
      <Sheet open={sheet === "photos"} onClose={close} title="Photos & Stories">
        <TabsRoot defaultValue="photos">
          <TabsList label="Photos and stories">
            <Tab value="photos">Photos</Tab>
            <Tab value="stories">Stories</Tab>
            <Tab value="people-count">People Count</Tab>
          </TabsList>
          <TabsContent value="photos" className="min-h-32">
            <PhotoSearch />
          </TabsContent>
          <TabsContent value="stories" className="h-40">
            <StoriesTab />
          </TabsContent>
          <TabsContent value="people-count" className="h-40">
            <PeopleCountTab />
          </TabsContent>
        </TabsRoot>
      </Sheet>
      <Sheet open={sheet === "ai"} onClose={close} title="AI" tall>
        {panel}
      </Sheet>
      <Sheet open={sheet === "ptz"} onClose={close} title="PTZ">
        <PtzPanel hotkeys={false} />
      </Sheet>
    </>
  );
}

function CaptureSheet() {
  const studio = useStudio();
  const mode = useStore(studio.capture.store, (s) => s.capture.mode);
  return (
    <div className="space-y-4">
      <label className="grid gap-1 text-sm text-slate-300">
        Mode
        <select
          value={mode}
          onChange={(e) => studio.capture.updateCaptureSettings({ mode: e.target.value as CaptureMode })}
          className="rounded-md border border-ink-700 bg-ink-950 px-2 py-2 text-sm"
        >
          <option value="single">Single Shot</option>
          <option value="burst">Burst Mode</option>
          <option value="timelapse">Timelapse</option>
        </select>
      </label>
      <CaptureSettingsFields layout="panel" />
      <CaptureButton className="w-full justify-center" label="Take Photo" />
    </div>
  );
}

/** The full-screen settings menu on small screens: the Insights and Timeline pages (the top bar has no room), sources, AI settings, auto-capture settings. */
export function MobileMenu({ open, onOpenChange, ai, automate }: { open: boolean; onOpenChange: (open: boolean) => void; ai?: ReactNode; automate?: ReactNode }) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Content aria-describedby={undefined} className="fixed inset-x-0 top-0 bottom-[var(--toast-clearance,0px)] z-50 overflow-y-auto bg-ink-950 p-4 lg:hidden">
          <div className="mb-4 flex items-center justify-between">
            <RadixDialog.Title className="text-lg font-semibold">Settings</RadixDialog.Title>
            <RadixDialog.Close aria-label="Close" className="rounded p-1 text-slate-400 hover:text-white">
              ✕
            </RadixDialog.Close>
          </div>
          <Link to="/studio/insights" className="mb-6 block rounded-md border border-ink-700 px-3 py-2 text-sm text-slate-200 hover:bg-ink-800 sm:hidden">
            Insights <span className="text-slate-400">· reports of your counts</span>
          </Link>
          <Link to="/studio/timeline" className="-mt-4 mb-6 block rounded-md border border-ink-700 px-3 py-2 text-sm text-slate-200 hover:bg-ink-800 sm:hidden">
            Timeline <span className="text-slate-400">· everything that happened</span>
          </Link>
          <section className="space-y-3">
            <h3 className="text-sm font-semibold">Add Source</h3>
            <AddCameraMenu />
            <CameraList />
          </section>
          <section className="mt-6 space-y-3">
            <h3 className="text-sm font-semibold">AI settings</h3>
            {ai ?? <p className="text-sm text-slate-400">AI analysis needs the vision service, which this server doesn't offer yet.</p>}
          </section>
          <section className="mt-6 space-y-3">
            <h3 className="text-sm font-semibold">Auto-capture settings</h3>
            {automate ?? <p className="text-sm text-slate-400">Auto-capture runs with box detection, which needs the vision service.</p>}
          </section>
          <section className="mt-6">
            <VideoSettings />
          </section>
          <section className="mt-6">
            <OverlaySettings />
          </section>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
