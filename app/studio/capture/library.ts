// The user's saved work as the bottom bar shows it: photos (newest first, paged), stories and
// people-count sessions. Mutations update the lists at once, and a list answer that was read before a
// mutation made meanwhile never undoes it (see ChangesDuringLoad).
import { errorDetail } from "../../lib/api/errors";
import { photosApi } from "../../lib/api/photos";
import { peopleCountApi } from "../../lib/api/people-count";
import { storiesApi } from "../../lib/api/stories";
import type { CountSession } from "../../schemas/people-count";
import type { Photo } from "../../schemas/photos";
import type { Story } from "../../schemas/stories";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

const PAGE = 50;

/**
 * Ids added, changed or deleted here while a list request is on its way. The answer may have been read
 * before those changes were saved, so for them the local state wins: a photo captured or deleted, a story
 * or session finished while its tab was loading.
 */
class ChangesDuringLoad {
  private readonly loads = new Set<Set<string>>();

  begin(): Set<string> {
    const changed = new Set<string>();
    this.loads.add(changed);
    return changed;
  }

  end(changed: Set<string>): void {
    this.loads.delete(changed);
  }

  note(id: string): void {
    for (const changed of this.loads) changed.add(id);
  }
}

/** A loaded list with local changes made during the load kept: local versions win, local deletes stay deleted. */
export function mergeLoaded<T extends { id: string }>(loaded: T[], current: T[], changed: Set<string>): T[] {
  const local = new Map(current.filter((item) => changed.has(item.id)).map((item) => [item.id, item]));
  const loadedIds = new Set(loaded.map((item) => item.id));
  const addedMeanwhile = [...local.values()].filter((item) => !loadedIds.has(item.id));
  const kept = loaded.flatMap((item) => (changed.has(item.id) ? (local.has(item.id) ? [local.get(item.id)!] : []) : [item]));
  return [...addedMeanwhile, ...kept];
}

export interface LibraryState {
  photos: Photo[];
  photosCursor: string | null;
  photosLoading: boolean;
  photosLoaded: boolean;
  stories: Story[];
  storiesLoading: boolean;
  storiesLoaded: boolean;
  sessions: CountSession[];
  sessionsLoading: boolean;
  sessionsLoaded: boolean;
}

export class Library {
  readonly store = createStore<LibraryState>({
    photos: [],
    photosCursor: null,
    photosLoading: false,
    photosLoaded: false,
    stories: [],
    storiesLoading: false,
    storiesLoaded: false,
    sessions: [],
    sessionsLoading: false,
    sessionsLoaded: false,
  });

  private readonly photoChanges = new ChangesDuringLoad();
  private readonly storyChanges = new ChangesDuringLoad();
  private readonly sessionChanges = new ChangesDuringLoad();

  constructor(private readonly notify: Notifier) {}

  async loadPhotos(more = false): Promise<void> {
    const state = this.store.get();
    if (state.photosLoading || (more && !state.photosCursor)) return;
    this.store.set({ photosLoading: true });
    const changed = this.photoChanges.begin();
    try {
      const page = await photosApi.list({ limit: PAGE, cursor: more ? state.photosCursor : null });
      this.store.set((s) => ({
        photos: more ? [...s.photos, ...page.items.filter((p) => !changed.has(p.id) && !s.photos.some((q) => q.id === p.id))] : mergeLoaded(page.items, s.photos, changed),
        photosCursor: page.nextCursor,
        photosLoaded: true,
      }));
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to load photos"), variant: "destructive" });
    } finally {
      this.photoChanges.end(changed);
      this.store.set({ photosLoading: false });
    }
  }

  addPhoto(photo: Photo): void {
    this.photoChanges.note(photo.id);
    this.store.set((s) => ({ photos: [photo, ...s.photos.filter((p) => p.id !== photo.id)] }));
    if (photo.storyId) {
      this.store.set((s) => ({
        stories: s.stories.map((story) =>
          story.id === photo.storyId ? { ...story, photoCount: story.photoCount + 1, featuredPhotoId: story.featuredPhotoId ?? photo.id } : story,
        ),
      }));
    }
  }

  async deletePhoto(id: string): Promise<boolean> {
    try {
      await photosApi.remove(id);
      this.photoChanges.note(id);
      this.store.set((s) => ({ photos: s.photos.filter((p) => p.id !== id) }));
      return true;
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to delete photo"), variant: "destructive" });
      return false;
    }
  }

  async loadStories(): Promise<void> {
    this.store.set({ storiesLoading: true });
    const changed = this.storyChanges.begin();
    try {
      const stories = await storiesApi.list();
      this.store.set((s) => ({ stories: mergeLoaded(stories, s.stories, changed), storiesLoaded: true }));
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to load stories"), variant: "destructive" });
    } finally {
      this.storyChanges.end(changed);
      this.store.set({ storiesLoading: false });
    }
  }

  upsertStory(story: Story): void {
    this.storyChanges.note(story.id);
    this.store.set((s) => ({ stories: s.stories.some((x) => x.id === story.id) ? s.stories.map((x) => (x.id === story.id ? story : x)) : [story, ...s.stories] }));
  }

  /** Saves a title when it is non-empty after trimming and differs; the spec's toasts either way. */
  async renameStory(story: Story, title: string): Promise<Story | null> {
    const trimmed = title.trim();
    if (!trimmed || trimmed === story.title) return null;
    try {
      const updated = await storiesApi.rename(story.id, trimmed);
      this.upsertStory(updated);
      this.notify.toast({ title: "Title updated", description: "Story title has been saved" });
      return updated;
    } catch {
      this.notify.toast({ title: "Error", description: "Failed to update story title", variant: "destructive" });
      return null;
    }
  }

  async loadSessions(): Promise<void> {
    this.store.set({ sessionsLoading: true });
    const changed = this.sessionChanges.begin();
    try {
      const sessions = await peopleCountApi.sessions();
      this.store.set((s) => ({ sessions: mergeLoaded(sessions, s.sessions, changed), sessionsLoaded: true }));
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to load sessions"), variant: "destructive" });
    } finally {
      this.sessionChanges.end(changed);
      this.store.set({ sessionsLoading: false });
    }
  }

  upsertSession(session: CountSession): void {
    this.sessionChanges.note(session.id);
    this.store.set((s) => ({
      sessions: s.sessions.some((x) => x.id === session.id) ? s.sessions.map((x) => (x.id === session.id ? session : x)) : [session, ...s.sessions],
    }));
  }
}
