// The Stories tab: story cards, the recording state, and the story viewer.
import { format } from "date-fns";
import { useEffect, useState } from "react";
import { photosApi } from "../../lib/api/photos";
import type { Story } from "../../schemas/stories";
import { StoryViewer } from "./story-viewer";
import { useAi, useCommand, useStudio, useStore } from "./studio-context";

export function StoriesTab() {
  const studio = useStudio();
  const stories = useStore(studio.library.store, (s) => s.stories);
  const loaded = useStore(studio.library.store, (s) => s.storiesLoaded);
  const activeStoryId = useStore(studio.capture.store, (s) => s.activeStoryId);
  const ai = useAi();
  const storyMode = useStore(ai.captions.store, (s) => s.storyMode);
  const stopStory = useCommand("ai.story.stop");
  const [open, setOpen] = useState<Story | null>(null);

  useEffect(() => {
    void studio.library.loadStories();
  }, [studio]);

  return (
    <div className="h-full overflow-x-auto p-2">
      {activeStoryId || storyMode ? (
        <div className="mb-2 flex items-center justify-between gap-3 rounded-md border border-red-800 bg-red-950/50 px-3 py-2 text-sm">
          <div>
            <p className="font-medium text-red-200">Recording story...</p>
            <p className="text-xs text-red-300/80">AI captions will appear here as they're generated</p>
          </div>
          {storyMode ? (
            <button type="button" onClick={() => stopStory.run()} className="shrink-0 rounded bg-red-600 px-2 py-1 text-xs font-medium text-white hover:bg-red-700">
              {stopStory.command.label}
            </button>
          ) : null}
        </div>
      ) : null}
      {!loaded ? (
        <p className="text-sm text-slate-400">Loading stories...</p>
      ) : stories.length === 0 && !activeStoryId ? (
        <div className="text-sm text-slate-400">
          <p>No stories yet</p>
          <p className="text-xs text-slate-500">Turn on Story Mode to start documenting your sessions</p>
        </div>
      ) : (
        <ul className="flex gap-2" aria-label="Stories">
          {stories.map((story) => (
            <li key={story.id}>
              <button
                type="button"
                onClick={() => setOpen(story)}
                className="flex w-56 gap-2 rounded-md border border-ink-700 bg-ink-900 p-2 text-left hover:border-brand-400"
                data-testid="story-card"
              >
                <div className="h-16 w-20 shrink-0 overflow-hidden rounded bg-ink-950">
                  {story.featuredPhotoId ? <img src={photosApi.thumbnailUrl(story.featuredPhotoId)} alt="" width={80} height={64} className="h-full w-full object-cover" /> : null}
                </div>
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-white">{story.title}</p>
                  <p className="text-xs text-slate-400">{format(new Date(story.createdAt), "MMM d, yyyy")}</p>
                  <p className="text-xs text-slate-400">
                    {story.photoCount} {story.photoCount === 1 ? "photo" : "photos"}
                    {story.isActive ? <span className="ml-2 rounded bg-red-600 px-1 text-[10px] font-semibold text-white">Active</span> : null}
                  </p>
                </div>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open ? <StoryViewer story={stories.find((s) => s.id === open.id) ?? open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
