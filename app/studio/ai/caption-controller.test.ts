// Story mode's recording: each caption goes into the story with a photo of the very frame it was made
// from, the next request waits words × word delay + 1000 ms, and Stop Story closes the story only after
// the last caption is saved. The vision and story calls are answered by a stubbed fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GrabbedFrame } from "../frames/frame-grabber";
import type { Notifier } from "../notifier";
import { AiSettingsStore } from "./ai-settings";
import { CaptionController, type CaptionHost } from "./caption-controller";
import { AiFailureNotices } from "./failure-notices";
import { AiModes } from "./modes";
import { storyNextDelayMs } from "./story-timing";

const STORY_ID = "11111111-1111-4111-8111-111111111111";
/** The story as the server answers it (the client checks answers against their schema in tests). */
const story = (isActive: boolean) => ({
  id: STORY_ID,
  cameraId: null,
  cameraName: "Cam",
  title: "Story",
  createdAt: new Date().toISOString(),
  finishedAt: isActive ? null : new Date().toISOString(),
  featuredPhotoId: null,
  photoCount: 0,
  isActive,
});

/** `answers`: the captions the server gives, in order, before the numbered ones. */
function harness(answers: string[] = []) {
  // The "video": its current frame changes on every timer turn, like a live camera.
  let frameNo = 0;
  const ticker = setInterval(() => frameNo++, 1);
  const frame = (kind: string): GrabbedFrame => ({ dataUrl: `data:image/jpeg;base64,${kind}-${frameNo}`, width: 640, height: 480 });
  const savedPhotos: Array<{ dataUrl: string; storyId: string | null | undefined }> = [];
  const calls: Array<{ url: string; body: Record<string, unknown>; at: number }> = [];
  const toasts: string[] = [];
  let captionNo = 0;
  let releaseCaptionSave: (() => void) | null = null;
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, body, at: Date.now() });
    const reply = (value: unknown) => new Response(JSON.stringify(value), { status: 200 });
    if (url === "/api/moondream/caption") {
      // The model takes a moment; meanwhile the camera moves on to other frames.
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (answers.length) return reply({ caption: answers.shift() });
      return reply({ caption: `Story caption number ${++captionNo} here.` });
    }
    if (url === "/api/stories") return reply(story(true));
    if (url === `/api/stories/${STORY_ID}/captions`) {
      if (captionNo === 2) await new Promise<void>((resolve) => (releaseCaptionSave = resolve));
      return reply({ id: `00000000-0000-4000-8000-00000000000${captionNo}`, caption: "", capturedAt: new Date().toISOString(), photoId: null });
    }
    if (url === `/api/stories/${STORY_ID}/finish`) return reply(story(false));
    return new Response("not found", { status: 404 });
  });
  const notify: Notifier = { toast: (t) => toasts.push(t.title), alert: () => {} };
  const capture = {
    setActiveStory: vi.fn(),
    grabPreviewFrame: async () => frame("full"),
    captureOne: async () => ({ id: "initial" }),
    savePhoto: async (f: GrabbedFrame, options: { storyId?: string | null }) => {
      savedPhotos.push({ dataUrl: f.dataUrl, storyId: options.storyId });
      return { id: `photo-${savedPhotos.length}` };
    },
  };
  const settings = new AiSettingsStore();
  const modes = new AiModes();
  const host = {
    cameras: { selectedCamera: { id: "22222222-2222-4222-8222-222222222222", name: "Cam" } },
    capture,
    library: { upsertStory: () => {} },
    notify,
    settings,
    failures: new AiFailureNotices(notify),
    account: { noteCall: () => {} },
    modes,
    grabFrame: async () => frame("ai"),
  } as unknown as CaptionHost;
  const controller = new CaptionController(host, { isHidden: () => false, onChange: () => () => {} });
  // The real rules over this controller (and no counting): a story turns AI on.
  modes.connect({
    captions: controller,
    story: { isOn: () => controller.isStoryOn(), stopStory: (options) => controller.stopStory(options) },
    counting: { isOn: () => false, stop: async () => {} },
  });
  return {
    controller,
    settings,
    calls,
    savedPhotos,
    toasts,
    releaseCaptionSave: () => releaseCaptionSave?.(),
    dispose: () => {
      controller.dispose();
      clearInterval(ticker);
    },
  };
}

let h: ReturnType<typeof harness>;
beforeEach(() => {
  h = harness();
});
afterEach(() => {
  h.dispose();
  vi.unstubAllGlobals();
});

describe("story mode", () => {
  it("records each caption with a photo of the frame it describes, and paces the next request by its length", async () => {
    await h.controller.startStory();
    expect(h.toasts).toContain("Story Started");
    expect(h.controller.store.get()).toMatchObject({ enabled: true, storyMode: true, storyId: STORY_ID });
    await vi.waitFor(() => expect(h.calls.filter((c) => c.url.endsWith("/captions"))).toHaveLength(1));

    const captionCall = h.calls.find((c) => c.url === "/api/moondream/caption")!;
    expect(captionCall.body.storyMode).toBe(true);
    // The AI frame and the story photo were drawn in the same tick: the same frame number.
    const aiFrameNo = String(captionCall.body.imageData).split("-")[1];
    expect(h.savedPhotos).toEqual([{ dataUrl: `data:image/jpeg;base64,full-${aiFrameNo}`, storyId: STORY_ID }]);
    const posted = h.calls.find((c) => c.url.endsWith("/captions"))!;
    expect(posted.body).toEqual({ caption: "Story caption number 1 here.", photoId: "photo-1" });
    expect(h.controller.store.get().storyCaption).toBe("Story caption number 1 here.");
    // 5 words at medium speed: 5 × 350 + 1000 = 2750 ms before the next caption is asked for.
    expect(storyNextDelayMs("Story caption number 1 here.", "medium")).toBe(2750);
    await vi.waitFor(() => expect(h.calls.filter((c) => c.url === "/api/moondream/caption")).toHaveLength(2), { timeout: 5000 });
    const [first, second] = h.calls.filter((c) => c.url === "/api/moondream/caption");
    // Measured from the first request, which was answered at once: at least the story delay later.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2740);
  });

  it("Stop Story lets the caption being saved land before it finishes the story", async () => {
    await h.controller.startStory();
    // The second caption's save is held open.
    await vi.waitFor(() => expect(h.calls.filter((c) => c.url.endsWith("/captions"))).toHaveLength(2), { timeout: 5000 });
    const stopped = h.controller.stopStory();
    expect(h.controller.store.get().storyMode).toBe(false);
    // A few turns of the event loop: nothing but the held save stands in the way of finishing.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(h.calls.some((c) => c.url.endsWith("/finish"))).toBe(false);
    h.releaseCaptionSave();
    await stopped;
    expect(h.calls.at(-1)!.url).toBe(`/api/stories/${STORY_ID}/finish`);
    expect(h.toasts).toContain("Story Finished");
  });
});

describe('an empty caption (the server\'s "nothing new")', () => {
  it("is neither shown nor recorded, and story mode asks again after the shortest story pause", async () => {
    h.dispose();
    h = harness([""]);
    // An analysis interval the test would time out on, were the next story caption timed by it.
    h.settings.update({ intervalSeconds: 60 });
    await h.controller.startStory();
    await vi.waitFor(() => expect(h.calls.filter((c) => c.url.endsWith("/captions"))).toHaveLength(1), { timeout: 5000 });
    const captionCalls = h.calls.filter((c) => c.url === "/api/moondream/caption");
    expect(captionCalls).toHaveLength(2);
    // The empty answer saved no photo and posted no caption: the one recorded is the next real caption.
    expect(h.savedPhotos).toHaveLength(1);
    expect(h.calls.find((c) => c.url.endsWith("/captions"))!.body).toEqual({ caption: "Story caption number 1 here.", photoId: "photo-1" });
    expect(h.controller.store.get()).toMatchObject({ storyCaption: "Story caption number 1 here.", storyCaptionSeq: 1 });
    // Asked again after the story minimum (2 s), not the analysis interval.
    expect(captionCalls[1]!.at - captionCalls[0]!.at).toBeGreaterThanOrEqual(1990);
  });

  it("keeps the plain caption on screen", async () => {
    h.dispose();
    h = harness(["A first caption.", ""]);
    h.controller.setEnabled(true);
    await vi.waitFor(() => expect(h.controller.store.get().caption).toBe("A first caption."));
    h.controller.poke();
    await vi.waitFor(() => expect(h.calls.filter((c) => c.url === "/api/moondream/caption")).toHaveLength(2));
    await vi.waitFor(() => expect(h.controller.store.get().analyzing).toBe(false));
    expect(h.controller.store.get().caption).toBe("A first caption.");
  });
});
