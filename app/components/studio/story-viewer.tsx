// The story viewer: editable title, metadata, the photos, the captions timeline, and a .txt download.
import { format } from "date-fns";
import { useEffect, useState } from "react";
import type { Story, StoryCaption } from "../../schemas/stories";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { DownloadIcon, PencilIcon } from "../ui/icons";
import { toast } from "../ui/toast-store";
import { downloadText, storyFileName } from "./download";
import { GalleryModal } from "./gallery-modal";
import { useStore, useStudio } from "./studio-context";

export function storyAsText(story: Story, captions: StoryCaption[]): string {
  const lines = [story.title, `Created: ${format(new Date(story.createdAt), "PPpp")}`];
  if (story.cameraName) lines.push(`Camera: ${story.cameraName}`);
  lines.push(`Photos: ${story.photoCount}`, "", "Story Timeline", "");
  for (const caption of captions) lines.push(`[${format(new Date(caption.capturedAt), "h:mm:ss a")}] ${caption.caption}`);
  return `${lines.join("\n")}\n`;
}

export function StoryViewer({ story, onClose }: { story: Story; onClose: () => void }) {
  const studio = useStudio();
  const viewer = studio.viewers.story;
  const captions = useStore(viewer.store, (s) => (s.storyId === story.id ? s.captions : null));
  const photos = useStore(viewer.store, (s) => (s.storyId === story.id ? s.photos : null));
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(story.title);
  const [galleryIndex, setGalleryIndex] = useState<number | null>(null);

  // Read again when a photo joins the story (a story recording meanwhile).
  useEffect(() => viewer.open(story.id), [viewer, story.id, story.photoCount]);

  const saveTitle = async () => {
    setEditing(false);
    const updated = await studio.library.renameStory(story, title);
    if (!updated) setTitle(story.title);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Story" size="lg" onEscapeKeyDown={(event) => editing && event.preventDefault()}>
      <div className="space-y-4">
        {editing ? (
          <input
            autoFocus
            aria-label="Story title"
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            onBlur={() => void saveTitle()}
            onKeyDown={(e) => {
              if (e.key === "Enter") void saveTitle();
              if (e.key === "Escape") {
                setTitle(story.title);
                setEditing(false);
              }
            }}
            className="w-full rounded-md border border-brand-400 bg-ink-950 px-2 py-1 text-lg font-semibold"
          />
        ) : (
          <div className="flex items-center gap-2">
            <h3 className="text-lg font-semibold text-white" data-testid="story-title">
              {story.title}
            </h3>
            <button type="button" aria-label="Edit title" onClick={() => setEditing(true)} className="rounded p-1 text-slate-400 hover:text-white">
              <PencilIcon />
            </button>
          </div>
        )}
        <p className="flex flex-wrap items-center gap-3 text-sm text-slate-400">
          <span>{format(new Date(story.createdAt), "PPpp")}</span>
          {story.cameraName ? <span>{story.cameraName}</span> : null}
          <span>
            {story.photoCount} {story.photoCount === 1 ? "photo" : "photos"}
          </span>
          {story.isActive ? <span className="rounded bg-red-600 px-1.5 text-xs font-semibold text-white">Active</span> : null}
        </p>
        <section>
          <h4 className="mb-2 text-sm font-semibold">Photos</h4>
          {photos === null ? (
            <p className="text-sm text-slate-400">Loading photos...</p>
          ) : photos.length === 0 ? (
            <p className="text-sm text-slate-400">No photos in this story</p>
          ) : (
            <ul className="flex gap-2 overflow-x-auto">
              {photos.map((photo, index) => (
                <li key={photo.id}>
                  <button type="button" onClick={() => setGalleryIndex(index)} className="block h-20 overflow-hidden rounded border border-ink-700 hover:border-brand-400">
                    <img src={photo.thumbnailUrl} alt="" width={Math.round((80 * photo.width) / photo.height)} height={80} className="h-full w-auto" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section>
          <h4 className="mb-2 text-sm font-semibold">Story Timeline</h4>
          {captions === null ? (
            <p className="text-sm text-slate-400">Loading captions...</p>
          ) : captions.length === 0 ? (
            <p className="text-sm text-slate-400">No captions yet</p>
          ) : (
            <ol className="space-y-2" data-testid="story-timeline">
              {captions.map((caption) => (
                <li key={caption.id} className="flex gap-3 text-sm">
                  <time className="shrink-0 font-mono text-xs text-slate-500" dateTime={caption.capturedAt}>
                    {format(new Date(caption.capturedAt), "h:mm:ss a")}
                  </time>
                  <span className="text-slate-200">{caption.caption}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <div className="flex justify-end">
          <Button
            variant="secondary"
            disabled={captions === null}
            onClick={() => {
              downloadText(storyAsText(story, captions ?? []), storyFileName(story.title));
              toast({ title: "Story downloaded", description: "Story has been saved as a text file" });
            }}
          >
            <DownloadIcon /> Download
          </Button>
        </div>
      </div>
      {photos ? <GalleryModal photos={photos} index={galleryIndex} onIndexChange={setGalleryIndex} onDeleted={(id) => viewer.photoDeleted(id)} /> : null}
    </Dialog>
  );
}
