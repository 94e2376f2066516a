// The bottom bar (208 px): Photos, Stories and People Count tabs, and the capture controls.
import { Tab, TabsContent, TabsList, TabsRoot } from "../ui/tabs";
import { CaptureButton, CaptureModeButtons, CaptureSettingsFields } from "./capture-controls";
import { PeopleCountTab } from "./people-count-tab";
import { PhotoSearch } from "./photo-search";
import { StoriesTab } from "./stories-tab";

export function BottomBar() {
  return (
    <section className="hidden h-[208px] shrink-0 flex-col border-t border-ink-700 bg-ink-900/80 lg:flex" aria-label="Library and capture">
      <TabsRoot defaultValue="photos" className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-3 border-b border-ink-700 pr-3">
          <TabsList label="Library" className="border-b-0 px-2">
            <Tab value="photos">Photos</Tab>
            <Tab value="stories">Stories</Tab>
            <Tab value="people-count">People Count</Tab>
          </TabsList>
          <div className="flex items-center gap-3 py-1.5">
            <CaptureSettingsFields />
            <CaptureModeButtons />
            <CaptureButton />
          </div>
        </div>
        <TabsContent value="photos" className="min-h-0 flex-1 focus:outline-none">
          <PhotoSearch />
        </TabsContent>
        <TabsContent value="stories" className="min-h-0 flex-1 focus:outline-none">
          <StoriesTab />
        </TabsContent>
        <TabsContent value="people-count" className="min-h-0 flex-1 focus:outline-none">
          <PeopleCountTab />
        </TabsContent>
      </TabsRoot>
    </section>
  );
}
