// The Photos tab: a strip of thumbnails (newest first) with download and delete; a click opens the gallery.
import { useState } from "react";
import type { Photo } from "../../schemas/photos";
import { DownloadIcon, TrashIcon } from "../ui/icons";
import { downloadUrl, photoFileName } from "./download";
import { GalleryModal } from "./gallery-modal";
import { useStudio, useStore } from "./studio-context";

export function PhotoStrip() {
  const studio = useStudio();
  const photos = useStore(studio.library.store, (s) => s.photos);
  const loaded = useStore(studio.library.store, (s) => s.photosLoaded);
  const cursor = useStore(studio.library.store, (s) => s.photosCursor);
  const loading = useStore(studio.library.store, (s) => s.photosLoading);
  const [openIndex, setOpenIndex] = useState<number | null>(null);

  if (!loaded) return <p className="p-3 text-sm text-slate-400">Loading photos...</p>;
  if (photos.length === 0) {
    return (
      <div className="p-3 text-sm text-slate-400">
        <p>No photos yet</p>
        <p className="text-xs text-slate-500">Press Capture to take your first photo.</p>
      </div>
    );
  }
  return (
    <>
      <ul className="flex h-full items-center gap-2 overflow-x-auto p-2" aria-label="Photos" data-testid="photo-strip">
        {photos.map((photo, index) => (
          <PhotoThumb key={photo.id} photo={photo} onOpen={() => setOpenIndex(index)} />
        ))}
        {cursor ? (
          <li>
            <button
              type="button"
              disabled={loading}
              onClick={() => void studio.library.loadPhotos(true)}
              className="border-ink-600 h-24 w-24 rounded-md border border-dashed text-xs text-slate-400 hover:text-white"
            >
              {loading ? "Loading..." : "Load more"}
            </button>
          </li>
        ) : null}
      </ul>
      <GalleryModal photos={photos} index={openIndex} onIndexChange={setOpenIndex} />
    </>
  );
}

export function PhotoThumb({ photo, onOpen }: { photo: Photo; onOpen: () => void }) {
  const studio = useStudio();
  return (
    <li className="group relative h-24 shrink-0" data-testid="photo-thumb" data-photo-id={photo.id}>
      <button
        type="button"
        onClick={onOpen}
        className="block h-full overflow-hidden rounded-md border border-ink-700 hover:border-brand-400"
        aria-label={`Open photo from ${new Date(photo.createdAt).toLocaleString()}`}
      >
        <img src={photo.thumbnailUrl} alt="" loading="lazy" width={Math.round((96 * photo.width) / photo.height)} height={96} className="h-full w-auto object-cover" />
      </button>
      {photo.autoCapture ? <span className="pointer-events-none absolute top-1 left-1 rounded bg-amber-500/90 px-1 text-[10px] font-semibold text-black">AUTO</span> : null}
      <div className="absolute right-1 bottom-1 flex gap-1 opacity-0 transition-opacity group-hover:opacity-100 focus-within:opacity-100">
        <button
          type="button"
          aria-label="Download photo"
          onClick={() => downloadUrl(photo.imageUrl, photoFileName(photo))}
          className="rounded bg-black/70 p-1 text-white hover:bg-black"
        >
          <DownloadIcon />
        </button>
        <button type="button" aria-label="Delete photo" onClick={() => void studio.library.deletePhoto(photo.id)} className="rounded bg-black/70 p-1 text-white hover:bg-red-700">
          <TrashIcon />
        </button>
      </div>
    </li>
  );
}
