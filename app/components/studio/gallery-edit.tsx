// Gallery edits from a Moondream outline: Cut out (a PNG with transparency), Blur background (strength) and Smart
// crop (16:9, 1:1, 9:16, 4:5). Type what to edit around, optionally click the photo to mark it (the dots are sent as
// spatial_refs), find the outline (one AI call) and see it over the photo, then save it as a new photo in the
// strip. Escape cancels. A Moondream Station without segmentation is named before anything is tried.
import { useEffect, useState, type ReactNode } from "react";
import { errorDetail, problemType } from "../../lib/api/errors";
import { photosApi } from "../../lib/api/photos";
import { visionApi } from "../../lib/api/vision";
import { CROP_ASPECTS, type CropAspect, type SegmentPreview } from "../../schemas/photo-edits";
import type { Photo, PhotoEditKind } from "../../schemas/photos";
import { SEGMENTATION_UNSUPPORTED, VISION_PROBLEM, type Point } from "../../schemas/vision";
import { Button } from "../ui/button";
import { useStudio } from "./studio-context";

const TOOLS: Record<PhotoEditKind, { label: string; field: string; save: string }> = {
  cutout: { label: "Cut out", field: "What to cut out", save: "Save cut-out" },
  blur: { label: "Blur background", field: "Subject to keep sharp", save: "Save blurred photo" },
  crop: { label: "Smart crop", field: "Subject to crop around", save: "Save crop" },
};
const MAX_POINTS = 10;

interface EditState {
  photoId: string;
  kind: PhotoEditKind;
  object: string;
  points: Point[];
  strength: number;
  aspect: CropAspect;
  preview: SegmentPreview | null;
  busy: "outline" | "save" | null;
  error: string | null;
}

export interface GalleryEdit {
  /** The edit in progress on the photo shown, or null. */
  state: EditState | null;
  /** The deployment's Moondream server said it cannot segment. */
  unsupported: boolean;
  start(kind: PhotoEditKind): void;
  update(patch: Partial<Pick<EditState, "object" | "strength" | "aspect">>): void;
  /** A click on the photo at (x, y), fractions of it: a point on the subject. */
  mark(point: Point): void;
  findOutline(): Promise<void>;
  save(): Promise<void>;
  cancel(): void;
}

/** The edit's state for the gallery's photo; it ends when the photo changes. */
export function useGalleryEdit(photo: Photo | undefined): GalleryEdit {
  const studio = useStudio();
  const [edit, setEdit] = useState<EditState | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const state = edit && photo && edit.photoId === photo.id ? edit : null;

  useEffect(() => {
    let cancelled = false;
    visionApi.capabilities().then(
      (capabilities) => !cancelled && setUnsupported(capabilities.segmentation === "unsupported"),
      () => {}, // unknown: the first outline says so if it must
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const patch = (next: Partial<EditState>) => setEdit((current) => (current ? { ...current, ...next } : current));
  const failed = (error: unknown, fallback: string) => {
    if (problemType(error) === VISION_PROBLEM.segmentationUnsupported) setUnsupported(true);
    patch({ busy: null, error: errorDetail(error, fallback) });
  };

  return {
    state,
    unsupported,
    start(kind) {
      if (!photo) return;
      setEdit((current) =>
        current && current.photoId === photo.id
          ? { ...current, kind, error: null }
          : { photoId: photo.id, kind, object: "", points: [], strength: 50, aspect: "16:9", preview: null, busy: null, error: null },
      );
    },
    update: (next) => patch({ ...next, ...("object" in next ? { preview: null } : {}) }),
    mark(point) {
      if (!state || state.busy) return;
      patch({ points: [...state.points, point].slice(-MAX_POINTS), preview: null });
    },
    async findOutline() {
      if (!state || !photo) return;
      if (!state.object.trim()) return patch({ error: "Type what to outline first" });
      patch({ busy: "outline", error: null, preview: null });
      try {
        const preview = await photosApi.segment(photo.id, { object: state.object, ...(state.points.length ? { points: state.points } : {}) });
        patch({ busy: null, preview });
      } catch (error) {
        failed(error, "Could not outline the subject");
      }
    },
    async save() {
      if (!state?.preview || !photo) return;
      patch({ busy: "save", error: null });
      try {
        const saved = await photosApi.createEdit(photo.id, {
          kind: state.kind,
          object: state.object,
          path: state.preview.path,
          bbox: state.preview.bbox,
          ...(state.kind === "blur" ? { strength: state.strength } : {}),
          ...(state.kind === "crop" ? { aspect: state.aspect } : {}),
        });
        studio.library.addPhoto(saved);
        setEdit(null);
        studio.notify.toast({ title: "Saved as a new photo", description: `${TOOLS[state.kind].label}: ${state.object}` });
      } catch (error) {
        failed(error, "Could not save the edit");
      }
    },
    cancel: () => setEdit(null),
  };
}

/** The photo with the edit's marks and outline over it; clicks on it mark the subject while an edit is open. */
export function GalleryEditFrame({ edit, children }: { edit: GalleryEdit; children: ReactNode }) {
  const { state } = edit;
  const onClick = (event: React.MouseEvent<HTMLDivElement>) => {
    if (!state) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    edit.mark({ x: clamp((event.clientX - rect.left) / rect.width), y: clamp((event.clientY - rect.top) / rect.height) });
  };
  return (
    <div className={`relative max-w-full ${state ? "cursor-crosshair" : ""}`} onClick={onClick} data-testid="gallery-edit-frame">
      {children}
      {state?.preview ? <OutlineOverlay preview={state.preview} /> : null}
      {state?.points.map((point, i) => (
        <span
          key={i}
          data-testid="edit-point"
          className="pointer-events-none absolute h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-sky-500"
          style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
        />
      ))}
    </div>
  );
}

/** The outline as Moondream gave it: a path normalised to its box, drawn in a 0–1 viewBox placed at the box. */
function OutlineOverlay({ preview: { path, bbox } }: { preview: SegmentPreview }) {
  return (
    <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox="0 0 1 1" preserveAspectRatio="none" data-testid="edit-outline" aria-hidden>
      <svg x={bbox.x_min} y={bbox.y_min} width={bbox.x_max - bbox.x_min} height={bbox.y_max - bbox.y_min} viewBox="0 0 1 1" preserveAspectRatio="none">
        <path d={path} fill="rgba(56, 189, 248, 0.3)" stroke="#38bdf8" strokeWidth={2} vectorEffect="non-scaling-stroke" />
      </svg>
    </svg>
  );
}

/** The edit buttons, and the open edit's form: what to outline, its options, the outline and saving. */
export function GalleryEditPanel({ edit }: { edit: GalleryEdit }) {
  const { state } = edit;
  if (edit.unsupported) {
    return (
      <p className="mt-3 text-sm text-amber-300" role="note" data-testid="edit-unsupported">
        {SEGMENTATION_UNSUPPORTED}
      </p>
    );
  }
  return (
    <section className="mt-3 space-y-3" aria-label="Edit photo">
      <div className="flex flex-wrap gap-2">
        {(Object.keys(TOOLS) as PhotoEditKind[]).map((kind) => (
          <Button key={kind} variant={state?.kind === kind ? "primary" : "secondary"} aria-pressed={state?.kind === kind} onClick={() => edit.start(kind)}>
            {TOOLS[kind].label}
          </Button>
        ))}
      </div>
      {state ? (
        <form
          className="space-y-3 rounded-lg border border-ink-700 p-3"
          onSubmit={(event) => {
            event.preventDefault();
            void (state.preview ? edit.save() : edit.findOutline());
          }}
        >
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm text-slate-200">
              {TOOLS[state.kind].field}
              <input
                autoFocus
                value={state.object}
                maxLength={200}
                placeholder="e.g. dog, the person on the left"
                onChange={(event) => edit.update({ object: event.target.value })}
                className="rounded-md border border-ink-700 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400 focus:outline-none"
              />
            </label>
            {state.kind === "blur" ? (
              <label className="flex flex-col gap-1 text-sm text-slate-200">
                Strength {state.strength}
                <input type="range" min={1} max={100} value={state.strength} onChange={(event) => edit.update({ strength: Number(event.target.value) })} />
              </label>
            ) : null}
            {state.kind === "crop" ? (
              <label className="flex flex-col gap-1 text-sm text-slate-200">
                Aspect
                <select
                  value={state.aspect}
                  onChange={(event) => edit.update({ aspect: event.target.value as CropAspect })}
                  className="rounded-md border border-ink-700 bg-ink-900 px-2 py-2 text-sm text-slate-100"
                >
                  {CROP_ASPECTS.map((aspect) => (
                    <option key={aspect} value={aspect}>
                      {aspect}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
          </div>
          <p className="text-xs text-slate-400">
            Click the photo to mark the subject (optional){state.points.length ? ` · ${state.points.length} marked` : ""}. Finding the outline uses one Moondream call; Escape
            cancels.
          </p>
          {state.error ? (
            <p className="text-sm text-red-400" role="alert">
              {state.error}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              type={state.preview ? "button" : "submit"}
              variant={state.preview ? "secondary" : "primary"}
              disabled={state.busy !== null}
              aria-busy={state.busy === "outline"}
              onClick={state.preview ? () => void edit.findOutline() : undefined}
            >
              {state.busy === "outline" ? "Finding outline..." : state.preview ? "Find again" : "Find outline"}
            </Button>
            {state.preview ? (
              <Button type="submit" disabled={state.busy !== null} aria-busy={state.busy === "save"}>
                {state.busy === "save" ? "Saving..." : TOOLS[state.kind].save}
              </Button>
            ) : null}
            <Button variant="ghost" onClick={() => edit.cancel()}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
