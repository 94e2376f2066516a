// Gallery colour grading: the photo re-rendered through a chosen LUT by the WASM core in the image
// worker, encoded as a JPEG at 0.95 for the view and the download (named with the LUT).
import { useEffect, useId, useState } from "react";
import type { Photo } from "../../schemas/photos";
import type { OverlayController } from "../../studio/overlays/overlays";
import { useStudio, useStore } from "./studio-context";

export const GALLERY_JPEG_QUALITY = 0.95;

export interface GradedPhoto {
  /** What to show and download: the graded JPEG's object URL, or the original photo's URL. */
  url: string;
  /** The LUT's name once the graded picture is ready (for the download's file name). */
  lutName: string | null;
  processing: boolean;
}

async function loadImage(url: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.decoding = "async";
  image.src = url;
  await image.decode();
  return image;
}

async function gradePhoto(overlays: OverlayController, photo: Photo, lutId: string, intensity: number): Promise<{ blob: Blob; lutName: string }> {
  const client = overlays.imageCore();
  const [{ lut, name }, image] = await Promise.all([overlays.fetchLut(lutId), loadImage(photo.imageUrl)]);
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("2D canvas unavailable");
  context.drawImage(image, 0, 0);
  const frame = context.getImageData(0, 0, canvas.width, canvas.height);
  const handle = await client.loadLut(lut);
  try {
    const graded = await client.applyLut(frame.data, handle, intensity);
    context.putImageData(new ImageData(graded as Uint8ClampedArray<ArrayBuffer>, canvas.width, canvas.height), 0, 0);
  } finally {
    void client.releaseLut(handle).catch(() => {});
  }
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", GALLERY_JPEG_QUALITY));
  if (!blob) throw new Error("JPEG encoding failed");
  return { blob, lutName: name };
}

/** The photo as graded with `lutId` (null: the original). Failures are only logged; the original shows. */
export function useGradedPhoto(photo: Photo | undefined, lutId: string | null): GradedPhoto {
  const { overlays } = useStudio();
  const intensity = useStore(overlays.store, (s) => s.settings.lutIntensity);
  const [graded, setGraded] = useState<{ key: string; url: string; lutName: string } | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const key = photo && lutId ? `${photo.id}:${lutId}:${intensity}` : null;

  useEffect(() => {
    if (!key || !lutId || !photo) return;
    let cancelled = false;
    let url: string | null = null;
    gradePhoto(overlays, photo, lutId, intensity).then(
      ({ blob, lutName }) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setGraded({ key, url, lutName });
      },
      (error: unknown) => {
        if (cancelled) return;
        console.warn("Photo grading failed", error);
        setFailedKey(key);
      },
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [key, lutId, photo, intensity, overlays]);

  const original = photo?.imageUrl ?? "";
  if (!key) return { url: original, lutName: null, processing: false };
  if (graded?.key === key) return { url: graded.url, lutName: graded.lutName, processing: false };
  if (failedKey === key) return { url: original, lutName: null, processing: false };
  return { url: original, lutName: null, processing: true };
}

/** The gallery's LUT picker (built-ins first, as the library lists them). */
export function GalleryLutPicker({ value, onChange, disabled }: { value: string | null; onChange: (lutId: string | null) => void; disabled?: boolean }) {
  const { overlays } = useStudio();
  const luts = useStore(overlays.store, (s) => s.luts);
  const id = useId();
  useEffect(() => overlays.start(), [overlays]);
  return (
    <div className="flex items-center gap-2 text-sm text-slate-300">
      <label htmlFor={id}>Colour grade</label>
      <select
        id={id}
        value={value ?? ""}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value || null)}
        className="rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm"
      >
        <option value="">Original</option>
        {luts.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
