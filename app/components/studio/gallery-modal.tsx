// The photo gallery: previous/next, position counter, colour grade (LUT) picker, download, delete, edits from a
// Moondream outline (./gallery-edit.tsx); Left/Right/Escape keys.
import { format } from "date-fns";
import { useEffect, useRef, useState } from "react";
import type { Photo } from "../../schemas/photos";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, TrashIcon } from "../ui/icons";
import { downloadUrl, photoFileName } from "./download";
import { GalleryEditFrame, GalleryEditPanel, useGalleryEdit } from "./gallery-edit";
import { GalleryLutPicker, useGradedPhoto } from "./gallery-grading";
import { useStudio } from "./studio-context";

/** After a delete: stay on the same index (the next photo), or step back at the end; close when empty. */
export function indexAfterDelete(index: number, remaining: number): number | null {
  if (remaining === 0) return null;
  return Math.min(index, remaining - 1);
}

export function GalleryModal({
  photos,
  index,
  onIndexChange,
  onDeleted,
}: {
  photos: Photo[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
  onDeleted?: (id: string) => void;
}) {
  const studio = useStudio();
  const photo = index === null ? undefined : photos[index];
  // The LUT choice belongs to one photo: it resets when the photo changes.
  const [grade, setGrade] = useState<{ photoId: string; lutId: string } | null>(null);
  const lutId = photo && grade?.photoId === photo.id ? grade.lutId : null;
  const graded = useGradedPhoto(photo, lutId);
  const edit = useGalleryEdit(photo);

  // A photo added while the gallery is open (an edit saved, a capture) shifts the list: stay on the photo shown. The
  // list is compared by its ids, not its identity: a caller may hand a new array with the same photos on every render,
  // and that, with the arrow keys' new index, must not send the gallery back to the photo shown before.
  const ids = photos.map((p) => p.id).join();
  const shown = useRef({ ids, id: photo?.id });
  useEffect(() => {
    const before = shown.current;
    shown.current = { ids, id: index === null ? undefined : photos[index]?.id };
    if (index === null || before.ids === ids || !before.id || photos[index]?.id === before.id) return;
    const at = photos.findIndex((p) => p.id === before.id);
    if (at >= 0) {
      shown.current.id = before.id;
      onIndexChange(at);
    }
  }, [ids, photos, index, onIndexChange]);

  useEffect(() => {
    if (index === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return; // an edit's field
      if (event.key === "ArrowLeft" && index > 0) onIndexChange(index - 1);
      if (event.key === "ArrowRight" && index < photos.length - 1) onIndexChange(index + 1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [index, photos.length, onIndexChange]);

  if (index === null || !photo) return null;
  const remove = async () => {
    if (!(await studio.library.deletePhoto(photo.id))) return;
    onDeleted?.(photo.id);
    onIndexChange(indexAfterDelete(index, photos.length - 1));
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onIndexChange(null)}
      onEscapeKeyDown={(event) => {
        if (!edit.state) return;
        event.preventDefault(); // Escape cancels the edit first, then closes the gallery
        edit.cancel();
      }}
      title="Photo"
      description={format(new Date(photo.createdAt), "MMMM d, yyyy • h:mm a")}
      size="xl"
    >
      <div className="relative flex items-center justify-center bg-black" data-testid="gallery">
        <GalleryEditFrame edit={edit}>
          <img
            key={photo.id}
            src={graded.url}
            alt={photo.detectionQuery ? `Photo with ${photo.detectionQuery}` : "Captured photo"}
            width={photo.width}
            height={photo.height}
            className="block h-auto max-h-[65vh] w-auto max-w-full object-contain"
          />
        </GalleryEditFrame>
        <button
          type="button"
          aria-label="Previous photo"
          disabled={index === 0}
          onClick={() => onIndexChange(index - 1)}
          className="absolute left-2 rounded-full bg-black/60 p-2 text-white disabled:opacity-30"
        >
          <ChevronLeftIcon />
        </button>
        <button
          type="button"
          aria-label="Next photo"
          disabled={index === photos.length - 1}
          onClick={() => onIndexChange(index + 1)}
          className="absolute right-2 rounded-full bg-black/60 p-2 text-white disabled:opacity-30"
        >
          <ChevronRightIcon />
        </button>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="text-sm text-slate-300">
          <span data-testid="gallery-position">
            {index + 1} / {photos.length}
          </span>
          <span className="ml-3 text-slate-500">
            {photo.captureMode}
            {photo.cameraName ? ` · ${photo.cameraName}` : ""} · {photo.width}×{photo.height}
          </span>
          {photo.detectionQuery ? (
            <span className="ml-3 text-amber-300">
              Detected: {photo.detectionQuery} ({photo.detectionBoxes?.length ?? 0})
            </span>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <GalleryLutPicker value={lutId} onChange={(next) => setGrade(next ? { photoId: photo.id, lutId: next } : null)} />
          <Button variant="secondary" disabled={graded.processing} aria-busy={graded.processing} onClick={() => downloadUrl(graded.url, photoFileName(photo, graded.lutName))}>
            <DownloadIcon /> Download
          </Button>
          <Button variant="destructive" onClick={() => void remove()}>
            <TrashIcon /> Delete
          </Button>
        </div>
      </div>
      <GalleryEditPanel edit={edit} />
      {photo.description ? (
        <p className="mt-3 text-sm text-slate-200" data-testid="photo-description">
          <span className="text-slate-500">Moondream: </span>
          {photo.description}
        </p>
      ) : null}
    </Dialog>
  );
}
