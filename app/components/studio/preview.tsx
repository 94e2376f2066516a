// The centre preview: live video or the still photo, letterboxed; overlays drawn over the picture's real
// rectangle (rule of thirds, capture HUD); a click reports a -1…1 position (click-to-move).
import { useEffect, useRef, useState, type ReactNode } from "react";
import { containRect, normalisedPosition, type Rect } from "../../studio/geometry";
import { isStaticPhoto } from "../../studio/cameras/cameras";
import { ImageOverlays } from "./image-overlays";
import { useStudio, useStore } from "./studio-context";

/** Tracks the picture's on-screen rectangle inside the preview box (resize, new video size). */
function usePictureRect(box: HTMLElement | null, media: HTMLVideoElement | HTMLImageElement | null): Rect | null {
  const [rect, setRect] = useState<Rect | null>(null);
  useEffect(() => {
    if (!box || !media) return setRect(null);
    const update = () => {
      const w = media instanceof HTMLVideoElement ? media.videoWidth : media.naturalWidth;
      const h = media instanceof HTMLVideoElement ? media.videoHeight : media.naturalHeight;
      const next = w && h ? containRect(box.clientWidth, box.clientHeight, w, h) : null;
      setRect((prev) => (prev && next && prev.x === next.x && prev.y === next.y && prev.width === next.width && prev.height === next.height ? prev : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(box);
    media.addEventListener("loadedmetadata", update);
    media.addEventListener("resize", update);
    media.addEventListener("load", update);
    return () => {
      observer.disconnect();
      media.removeEventListener("loadedmetadata", update);
      media.removeEventListener("resize", update);
      media.removeEventListener("load", update);
    };
  }, [box, media]);
  return rect;
}

export function Preview({ overlays }: { overlays?: ReactNode }) {
  const studio = useStudio();
  const camera = useStore(studio.cameras.store, (s) => s.cameras.find((c) => c.id === s.selectedCameraId) ?? null);
  const source = useStore(studio.cameras.store, (s) => (s.selectedCameraId ? s.sources[s.selectedCameraId] : undefined));
  const showGrid = useStore(studio.view.store, (s) => s.showGrid);
  const lastClick = useStore(studio.view.store, (s) => s.lastClick);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const [media, setMedia] = useState<HTMLVideoElement | HTMLImageElement | null>(null);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const rect = usePictureRect(box, media);
  const playing = source?.media ?? null;
  const still = camera && isStaticPhoto(camera) ? camera.imageUrl : null;

  // One path for every live source: a webcam's stream or an IP camera's live view plays in this <video>,
  // which overlays, captures and the AI loops read.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !playing) return;
    return playing.attach(video);
  }, [playing]);

  useEffect(() => {
    studio.capture.setPreviewElement(media);
    return () => studio.capture.setPreviewElement(null);
  }, [studio, media]);

  return (
    <div
      ref={setBox}
      className="relative h-full w-full overflow-hidden bg-black"
      data-testid="preview"
      onClick={(event) => {
        if (!rect || !box) return;
        const bounds = box.getBoundingClientRect();
        const position = normalisedPosition(event.clientX - bounds.left, event.clientY - bounds.top, rect);
        if (position) studio.view.reportClick(position);
      }}
    >
      {still ? (
        <img key={still} ref={(el) => setMedia(el)} src={still} alt={camera?.name ?? "Photo"} className="h-full w-full object-contain" data-testid="preview-image" />
      ) : (
        <video
          ref={(el) => {
            videoRef.current = el;
            setMedia(el);
          }}
          muted
          playsInline
          autoPlay
          className={`h-full w-full object-contain ${playing ? "" : "invisible"}`}
          data-testid="preview-video"
        />
      )}
      {!camera ? <PreviewMessage>Add a camera to start</PreviewMessage> : null}
      {camera && !still && source?.status === "connecting" ? <PreviewMessage>Connecting to {camera.name}…</PreviewMessage> : null}
      {camera && !still && (source?.status === "offline" || source?.status === "error") ? (
        <PreviewMessage>
          <span className="text-red-300">{source.error ?? "Camera offline"}</span>
          <span className="mt-3 flex flex-wrap justify-center gap-2">
            {source.offerAny ? (
              <button
                type="button"
                className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
                onClick={() => void studio.cameras.useThisDevicesCamera(camera.id)}
              >
                Use this device's camera
              </button>
            ) : null}
            <button type="button" className="border-ink-600 rounded-md border px-3 py-1.5 text-sm hover:bg-ink-800" onClick={() => void studio.cameras.selectCamera(camera.id)}>
              Try again
            </button>
          </span>
        </PreviewMessage>
      ) : null}
      {rect ? (
        <div
          className="pointer-events-none absolute"
          style={{ left: rect.x, top: rect.y, width: rect.width, height: rect.height }}
          data-testid="picture-area"
          data-last-click={lastClick ? `${lastClick.x.toFixed(2)},${lastClick.y.toFixed(2)}` : undefined}
        >
          <ImageOverlays media={media} />
          {showGrid ? <ThirdsGrid /> : null}
          {overlays}
        </div>
      ) : null}
      <CaptureHud />
    </div>
  );
}

function PreviewMessage({ children }: { children: ReactNode }) {
  return <div className="absolute inset-0 flex flex-col items-center justify-center p-6 text-center text-sm text-slate-400">{children}</div>;
}

function ThirdsGrid() {
  const line = "absolute bg-white/50";
  return (
    <div className="absolute inset-0" data-testid="thirds-grid">
      <div className={`${line} top-0 left-1/3 h-full w-px`} />
      <div className={`${line} top-0 left-2/3 h-full w-px`} />
      <div className={`${line} top-1/3 left-0 h-px w-full`} />
      <div className={`${line} top-2/3 left-0 h-px w-full`} />
    </div>
  );
}

function CaptureHud() {
  const studio = useStudio();
  const mode = useStore(studio.capture.store, (s) => s.capture.mode);
  const progress = useStore(studio.capture.store, (s) => s.progress);
  return (
    <div
      className="pointer-events-none absolute top-3 left-3 flex items-center gap-2 rounded-md bg-black/60 px-2 py-1 text-xs font-medium tracking-wide text-white uppercase"
      data-testid="capture-hud"
    >
      <span>{mode}</span>
      {progress ? (
        <span className="text-amber-300 normal-case">
          {progress.taken}/{progress.total ?? "∞"}
        </span>
      ) : null}
    </div>
  );
}
