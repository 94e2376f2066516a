// Local vision's choices kept in this browser (localStorage "localVision", like the other detection settings): the
// Detections tab's source per camera (a reload or coming back to a camera shows the source it was left on) and
// whether local boxes show their track ids ("person #12") or only the class.
import { loadJson, saveJson } from "../settings";
import { createStore } from "../store";

/** Who draws the Detections tab's boxes: the on-device detector, or Moondream's box and point detection. */
export type DetectionSource = "local" | "moondream";

export const LOCAL_VISION_PREFS_KEY = "localVision";
/** Cameras remembered at most (the oldest choices are forgotten first). */
const MAX_CAMERAS = 200;

export interface LocalVisionPrefs {
  sourceByCamera: Record<string, DetectionSource>;
  showTrackIds: boolean;
}

export const DEFAULT_LOCAL_VISION_PREFS: LocalVisionPrefs = { sourceByCamera: {}, showTrackIds: true };

/** Reads stored prefs, keeping only what is well-formed. */
export function sanitizeLocalVisionPrefs(raw: unknown): LocalVisionPrefs {
  const value = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const sources = (value.sourceByCamera && typeof value.sourceByCamera === "object" ? value.sourceByCamera : {}) as Record<string, unknown>;
  const sourceByCamera: Record<string, DetectionSource> = {};
  for (const [cameraId, source] of Object.entries(sources).slice(-MAX_CAMERAS)) if (source === "local" || source === "moondream") sourceByCamera[cameraId] = source;
  return { sourceByCamera, showTrackIds: typeof value.showTrackIds === "boolean" ? value.showTrackIds : DEFAULT_LOCAL_VISION_PREFS.showTrackIds };
}

export class LocalVisionPrefsStore {
  readonly store = createStore<LocalVisionPrefs>(sanitizeLocalVisionPrefs(loadJson(LOCAL_VISION_PREFS_KEY)));

  sourceFor(cameraId: string): DetectionSource | undefined {
    return this.store.get().sourceByCamera[cameraId];
  }

  rememberSource(cameraId: string, source: DetectionSource): void {
    if (this.sourceFor(cameraId) === source) return;
    // Re-inserted last, so the cap forgets the least recently chosen cameras.
    const { [cameraId]: _, ...others } = this.store.get().sourceByCamera;
    this.update({ sourceByCamera: { ...others, [cameraId]: source } });
  }

  setShowTrackIds(showTrackIds: boolean): void {
    this.update({ showTrackIds });
  }

  private update(patch: Partial<LocalVisionPrefs>): void {
    this.store.set(patch);
    saveJson(LOCAL_VISION_PREFS_KEY, sanitizeLocalVisionPrefs(this.store.get()));
  }
}
