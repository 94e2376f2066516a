// The story viewer's contents as the studio engine holds them: the open story's captions and photos, read when it
// opens (and again when its photo count changes); an answer for a story no longer open is dropped. Framework-free:
// the story viewer subscribes to `store`. Reopened on the same story (its photo count changed), what it shows stays
// until the new answers replace it.
import { errorDetail } from "../../lib/api/errors";
import type { storiesApi } from "../../lib/api/stories";
import type { Photo } from "../../schemas/photos";
import type { StoryCaption } from "../../schemas/stories";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

export interface StoryViewerState {
  storyId: string | null;
  /** Null while they load. */
  captions: StoryCaption[] | null;
  photos: Photo[] | null;
}

export type StoryViewerApi = Pick<typeof storiesApi, "captions" | "photos">;

export class StoryViewerController {
  readonly store = createStore<StoryViewerState>({ storyId: null, captions: null, photos: null });
  /** Bumped by each open and close: an answer from an earlier one is dropped. */
  private generation = 0;

  constructor(
    private readonly api: StoryViewerApi,
    private readonly notify: Notifier,
  ) {}

  /** Reads the story's captions and photos; the returned function closes it (the viewer's effect cleanup). */
  open(storyId: string): () => void {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    if (storyId !== this.store.get().storyId) this.store.set({ storyId, captions: null, photos: null });
    this.api.captions(storyId).then(
      (captions) => current() && this.store.set({ captions }),
      () => current() && this.notify.toast({ title: "Error", description: "Failed to fetch captions", variant: "destructive" }),
    );
    this.api.photos(storyId).then(
      (photos) => current() && this.store.set({ photos }),
      (error: unknown) => current() && this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to fetch photos"), variant: "destructive" }),
    );
    return () => this.close(generation);
  }

  /** A photo deleted from the viewer's gallery leaves its list. */
  photoDeleted(photoId: string): void {
    this.store.set((state) => ({ photos: state.photos?.filter((p) => p.id !== photoId) ?? null }));
  }

  private close(generation: number): void {
    if (generation !== this.generation) return;
    const closed = ++this.generation;
    // Cleared unless the same viewer reopens at once (React runs an effect's cleanup and its rerun together).
    queueMicrotask(() => {
      if (closed === this.generation) this.store.set({ storyId: null, captions: null, photos: null });
    });
  }
}
