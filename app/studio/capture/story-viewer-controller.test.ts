// The story viewer's controller against an in-memory server: captions and photos load, a failure is said in a toast,
// reopening the same story (a photo joined it) keeps what it shows until the new answers come, and closing clears it.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { Photo } from "../../schemas/photos";
import type { StoryCaption } from "../../schemas/stories";
import type { Notifier } from "../notifier";
import { StoryViewerController, type StoryViewerApi } from "./story-viewer-controller";

function harness(options: { failPhotos?: boolean } = {}) {
  const toasts: string[] = [];
  const captions: StoryCaption[] = [{ id: "c1", caption: "A person at the door" } as StoryCaption];
  const api = {
    captions: async () => [...captions],
    photos: async () => {
      if (options.failPhotos) throw new ApiError(404, JSON.stringify({ detail: "Story not found" }), "");
      return [{ id: "p1" } as Photo];
    },
  } as unknown as StoryViewerApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}: ${t.description}`), alert: () => undefined };
  return { viewer: new StoryViewerController(api, notify), toasts, captions };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("StoryViewerController", () => {
  it("loads the story's captions and photos, and clears them once closed", async () => {
    const { viewer } = harness();
    const close = viewer.open("story-1");
    await settle();
    expect(viewer.store.get()).toMatchObject({ storyId: "story-1", captions: [{ caption: "A person at the door" }], photos: [{ id: "p1" }] });
    close();
    await settle();
    expect(viewer.store.get()).toEqual({ storyId: null, captions: null, photos: null });
  });

  it("drops a photo deleted from the gallery", async () => {
    const { viewer } = harness();
    viewer.open("story-1");
    await settle();
    viewer.photoDeleted("p1");
    expect(viewer.store.get().photos).toEqual([]);
  });

  it("keeps what it shows when the same story reopens, until the new answers replace it", async () => {
    const { viewer, captions } = harness();
    const close = viewer.open("story-1");
    await settle();
    captions.push({ id: "c2", caption: "Two people leave" } as StoryCaption);
    close();
    viewer.open("story-1");
    expect(viewer.store.get().captions).toHaveLength(1);
    await settle();
    expect(viewer.store.get().captions).toHaveLength(2);
  });

  it("says a failed photo read in a toast with the problem's detail", async () => {
    const { viewer, toasts } = harness({ failPhotos: true });
    viewer.open("story-1");
    await settle();
    expect(toasts).toEqual(["Error: Story not found"]);
    expect(viewer.store.get().photos).toBeNull();
  });
});
