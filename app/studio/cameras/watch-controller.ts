// "Watch with local vision" (issue 30) as the studio holds it: per IP camera of the roster, whether the server watches
// it and how its pipeline runs (the camera card's line), reread every few seconds while the page shows; and the watch
// dialog's save, its refusals kept per field. Framework-free; the card and the dialog subscribe to `store`.
import { ApiError, errorDetail, problemFieldErrors } from "../../lib/api/errors";
import type { localVisionApi } from "../../lib/api/local-vision";
import type { Watch, WatchInput } from "../../schemas/watch";
import type { Notifier } from "../notifier";
import { createStore, type Store } from "../store";

/** How often the watches are read again: the server's pipeline writes its figures every 5 s. */
export const WATCH_REFRESH_MS = 5_000;

export const WATCH_FIELDS = ["enabled", "labels", "fps", "width"] as const;
export type WatchField = (typeof WATCH_FIELDS)[number];
export type WatchFieldErrors = Partial<Record<WatchField, string>>;

export interface WatchState {
  /** By IP camera id; a camera is absent until its watch is first read. */
  watches: Record<string, Watch>;
  /** The last refused save's messages, by field (the dialog shows them under their fields). */
  fieldErrors: WatchFieldErrors;
  /** The camera whose watch is being saved. */
  saving: string | null;
  /** When the watches were last read (Unix ms): "last event … ago" is said relative to it. */
  now: number;
}

export type WatchApi = Pick<typeof localVisionApi, "watch" | "setWatch">;

export interface WatchHost {
  api: WatchApi;
  notify: Notifier;
  /** Unix milliseconds. */
  now(): number;
  /** Whether the page is shown (a hidden tab does not poll). */
  visible(): boolean;
  /** The roster's IP cameras now (only they can be watched by the server). */
  ipCameraIds(): string[];
  /** Told whenever the roster changes (often: the ids are compared before anything is read). */
  onCamerasChanged(listener: () => void): () => void;
}

/** `labels.0` → `labels`: the server names an item's error by its path in the body. */
function fieldErrorsOf(error: unknown): WatchFieldErrors {
  const errors: WatchFieldErrors = {};
  for (const [path, messages] of Object.entries(problemFieldErrors(error))) {
    const field = path.split(".")[0] as WatchField;
    if (WATCH_FIELDS.includes(field) && messages[0] && !errors[field]) errors[field] = messages[0];
  }
  return errors;
}

export class WatchController {
  readonly store: Store<WatchState>;
  private cameraIds: string[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private reading = false;
  /** Saves per camera: a read begun before a save and answered after it holds the old setting, and is dropped. */
  private readonly saves = new Map<string, number>();
  private readonly offCameras: () => void;

  constructor(private readonly host: WatchHost) {
    this.store = createStore<WatchState>({ watches: {}, fieldErrors: {}, saving: null, now: host.now() });
    this.offCameras = host.onCamerasChanged(() => this.followCameras());
    this.followCameras();
  }

  /** Reads the new IP cameras' watches at once, forgets removed ones, and polls only while there is one. */
  private followCameras(): void {
    const ids = this.host.ipCameraIds();
    if (ids.join() === this.cameraIds.join()) return;
    const added = ids.filter((id) => !this.cameraIds.includes(id));
    this.cameraIds = ids;
    this.store.set((state) => ({ watches: Object.fromEntries(Object.entries(state.watches).filter(([id]) => ids.includes(id))) }));
    if (added.length) void this.read(added);
    if (ids.length && this.timer === null) {
      this.timer = setInterval(() => {
        if (this.host.visible() && !this.reading) void this.refresh();
      }, WATCH_REFRESH_MS);
    } else if (!ids.length && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Rereads every IP camera's watch (a failed read keeps what is shown until the next round). */
  async refresh(): Promise<void> {
    this.reading = true;
    try {
      await this.read(this.cameraIds);
    } finally {
      this.reading = false;
    }
  }

  private async read(ids: string[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        const saves = this.saves.get(id) ?? 0;
        try {
          const watch = await this.host.api.watch(id);
          if ((this.saves.get(id) ?? 0) !== saves || !this.cameraIds.includes(id)) return;
          this.store.set((state) => ({ watches: { ...state.watches, [id]: watch }, now: this.host.now() }));
        } catch (error) {
          // A camera deleted meanwhile (404) leaves with the roster's next change.
          if (!(error instanceof ApiError && error.status === 404)) console.warn("Failed to read the camera's watch", error);
        }
      }),
    );
  }

  /** Forgets the last refusal (the dialog opens afresh). */
  clearErrors(): void {
    this.store.set({ fieldErrors: {} });
  }

  /** Saves a camera's watch: true once stored (the card shows it at once); refused, its messages by field or a toast. */
  async save(cameraId: string, input: WatchInput): Promise<boolean> {
    this.store.set({ saving: cameraId, fieldErrors: {} });
    this.saves.set(cameraId, (this.saves.get(cameraId) ?? 0) + 1);
    try {
      const watch = await this.host.api.setWatch(cameraId, input);
      this.store.set((state) => ({ watches: { ...state.watches, [cameraId]: watch }, now: this.host.now() }));
      return true;
    } catch (error) {
      const fields = fieldErrorsOf(error);
      this.store.set({ fieldErrors: fields });
      if (!Object.keys(fields).length) this.host.notify.toast({ title: "Error", description: errorDetail(error, "The watch could not be saved"), variant: "destructive" });
      return false;
    } finally {
      this.store.set({ saving: null });
    }
  }

  dispose(): void {
    this.offCameras();
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
