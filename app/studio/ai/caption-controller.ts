// The caption loop and story mode (spec §4 "AI caption loop", "Story mode"). One loop runs while AI is
// on: outside story mode it captions a frame every analysis interval; in story mode it asks for story
// captions, times the next one from the caption's length, and records each caption in the story together
// with a photo of the very frame the caption describes (see `recordStoryCaption`).
import { storiesApi } from "../../lib/api/stories";
import { visionApi } from "../../lib/api/vision";
import { errorDetail } from "../../lib/api/errors";
import { defaultStoryTitle } from "../../schemas/stories";
import type { CameraRoster } from "../cameras/cameras";
import type { CaptureController } from "../capture/capture";
import { JPEG_QUALITY, type GrabbedFrame } from "../frames/frame-grabber";
import type { Library } from "../capture/library";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import type { AiSettings } from "./ai-settings";
import type { AiLoopHost } from "./loop-host";
import { captionStepKind, type ModesHost } from "./modes";
import { startRepeatingTask, type PageVisibility, type RepeatingTask } from "./repeating-task";
import { STORY_MIN_DELAY_MS, storyNextDelayMs } from "./story-timing";

export interface CaptionState {
  /** "Enable AI analysis". */
  enabled: boolean;
  /** A caption request is in flight. */
  analyzing: boolean;
  /** The latest plain caption. */
  caption: string | null;
  /** The story mode switch (on from the moment it is pressed, while the story is being created). */
  storyMode: boolean;
  /** The story captions are recorded in, once created. */
  storyId: string | null;
  /** The latest story caption, and a number that grows with each (the overlay restarts its reveal). */
  storyCaption: string | null;
  storyCaptionSeq: number;
}

/** What the caption loop needs from the rest of the studio (an interface so tests can drive it). */
export interface CaptionHost extends AiLoopHost {
  notify: Notifier;
  settings: { get(): Pick<AiSettings, "intervalSeconds" | "storySpeed"> };
  cameras: Pick<CameraRoster, "selectedCamera">;
  capture: Pick<CaptureController, "grabPreviewFrame" | "savePhoto" | "captureOne" | "setActiveStory">;
  library: Pick<Library, "upsertStory">;
  modes: ModesHost;
}

export class CaptionController {
  readonly store = createStore<CaptionState>({
    enabled: false,
    analyzing: false,
    caption: null,
    storyMode: false,
    storyId: null,
    storyCaption: null,
    storyCaptionSeq: 0,
  });
  private task: RepeatingTask | null = null;
  /** Grows whenever story mode is switched; a story start that finishes late checks it is still wanted. */
  private storyGeneration = 0;
  /** The story caption being saved, which Stop Story lets finish before it closes the story. */
  private recording: Promise<void> | null = null;

  constructor(
    private readonly ai: CaptionHost,
    private readonly visibility?: PageVisibility,
  ) {}

  isOn(): boolean {
    return this.store.get().enabled;
  }

  isStoryOn(): boolean {
    return this.store.get().storyMode;
  }

  /** `quiet`: the free calls ran out and the engine says so once; the story and counting end without their own toasts. */
  setEnabled(on: boolean, options: { quiet?: boolean } = {}): void {
    if (on) {
      if (this.task) return;
      this.store.set({ enabled: true });
      this.task = startRepeatingTask({
        step: (signal, asked) => this.step(signal, asked),
        delayMs: () => this.ai.settings.get().intervalSeconds * 1000,
        visibility: this.visibility,
      });
      return;
    }
    this.task?.stop();
    this.task = null;
    this.store.set({ enabled: false, analyzing: false, caption: null });
    // Story mode and people counting run on AI: the modes end them (and save them).
    this.ai.modes.switched("captions", false, options);
  }

  /** Runs the next caption now (e.g. story mode just started). */
  poke(): void {
    this.task?.poke();
  }

  private async step(signal: AbortSignal, asked: boolean): Promise<number | void> {
    const storyId = this.store.get().storyId;
    if (!captionStepKind({ story: Boolean(storyId), counting: this.ai.modes.state().counting })) return;
    // Both frames are drawn in this same tick, so the story photo is the picture the caption describes.
    const aiFrame = this.ai.grabFrame(JPEG_QUALITY.aiFrame);
    const photoFrame = storyId ? this.ai.capture.grabPreviewFrame({ quality: JPEG_QUALITY.capture }) : null;
    photoFrame?.catch(() => {}); // awaited (and reported) in recordStoryCaption
    let frame: GrabbedFrame | null;
    try {
      frame = await aiFrame;
    } catch (error) {
      console.warn("Could not take a frame for AI:", errorDetail(error, "unknown error"));
      return;
    }
    if (!frame || signal.aborted) return;
    this.store.set({ analyzing: true });
    try {
      const { caption } = await visionApi.caption(frame.dataUrl, Boolean(storyId), signal, asked ? "interactive" : "loop");
      this.ai.failures.succeeded();
      if (signal.aborted) return;
      // "" is the server's "nothing new" (the model answered nothing usable): keep what is shown, record
      // nothing, and in story mode ask again after the shortest story pause rather than the AI interval.
      if (!caption) return storyId ? STORY_MIN_DELAY_MS : undefined;
      if (!storyId) {
        this.store.set({ caption });
        return;
      }
      if (storyId !== this.store.get().storyId) return; // the story ended while the caption was on its way
      const shownAt = Date.now();
      this.store.set((s) => ({ storyCaption: caption, storyCaptionSeq: s.storyCaptionSeq + 1, analyzing: false }));
      await this.recordStoryCaption(storyId, caption, photoFrame);
      // Timed from when the caption appeared, not from when it was saved.
      return Math.max(0, storyNextDelayMs(caption, this.ai.settings.get().storySpeed) - (Date.now() - shownAt));
    } catch (error) {
      this.ai.failures.report(storyId ? "Story caption" : "Caption", error);
    } finally {
      this.store.set({ analyzing: false });
      this.ai.account.noteCall();
    }
  }

  /**
   * The frame the caption was made from is saved as a story photo (full resolution, capture quality) and
   * the caption posted with its id. Saved only once the caption exists, so a failed call leaves no
   * caption-less photo behind.
   */
  private recordStoryCaption(storyId: string, caption: string, photoFrame: Promise<GrabbedFrame | null> | null): Promise<void> {
    const saving = this.saveStoryCaption(storyId, caption, photoFrame);
    this.recording = saving;
    return saving;
  }

  private async saveStoryCaption(storyId: string, caption: string, photoFrame: Promise<GrabbedFrame | null> | null): Promise<void> {
    let photoId: string | null = null;
    try {
      const frame = await photoFrame;
      if (frame) photoId = (await this.ai.capture.savePhoto(frame, { storyId })).id;
    } catch (error) {
      console.warn("The story photo was not saved:", errorDetail(error, "unknown error"));
    }
    try {
      await storiesApi.addCaption(storyId, caption, photoId);
    } catch (error) {
      console.warn("The story caption was not saved:", errorDetail(error, "unknown error"));
    }
  }

  /** Creates a story, turns AI on, takes the initial full-quality photo into it, then "Story Started". */
  async startStory(): Promise<void> {
    if (this.store.get().storyMode) return;
    const generation = ++this.storyGeneration;
    this.store.set({ storyMode: true, storyId: null, storyCaption: null });
    const { capture, library } = this.ai;
    const camera = this.ai.cameras.selectedCamera;
    let story;
    try {
      story = await storiesApi.create({ cameraId: camera?.id ?? null, cameraName: camera?.name ?? null, title: defaultStoryTitle() });
    } catch (error) {
      if (generation === this.storyGeneration) this.store.set({ storyMode: false });
      this.ai.notify.toast({ title: "Error", description: errorDetail(error, "Failed to start story"), variant: "destructive" });
      return;
    }
    if (generation !== this.storyGeneration) {
      // Switched off while it was being created: close it rather than leave an active story behind.
      await storiesApi.finish(story.id).then(
        (s) => library.upsertStory(s),
        () => {},
      );
      return;
    }
    library.upsertStory(story);
    capture.setActiveStory(story.id);
    this.store.set({ storyId: story.id });
    // A loop already running (plain captions) may be waiting out a long interval: the story starts now.
    // A loop started here runs its first (story) step at once by itself.
    const wasRunning = this.task !== null;
    this.ai.modes.switched("story", true);
    try {
      await capture.captureOne({ quality: JPEG_QUALITY.storyPhoto, storyId: story.id });
    } catch (error) {
      console.warn("The story's first photo was not taken:", errorDetail(error, "unknown error"));
    }
    if (generation !== this.storyGeneration) return;
    this.ai.notify.toast({ title: "Story Started", description: "AI captions are recorded in Stories as they arrive." });
    if (wasRunning) this.poke();
  }

  /** Finishes the story ("Story Finished"); AI analysis stays on. */
  async stopStory(options: { quiet?: boolean } = {}): Promise<void> {
    const { storyMode, storyId } = this.store.get();
    if (!storyMode) return;
    this.storyGeneration++;
    this.store.set({ storyMode: false, storyId: null, storyCaption: null });
    this.ai.capture.setActiveStory(null);
    if (!storyId) return;
    // The last caption's photo and text land in the story before it is closed.
    await this.recording?.catch(() => {});
    try {
      this.ai.library.upsertStory(await storiesApi.finish(storyId));
      if (!options.quiet) this.ai.notify.toast({ title: "Story Finished", description: "Saved to Stories." });
    } catch (error) {
      this.ai.notify.toast({ title: "Error", description: errorDetail(error, "Failed to finish story"), variant: "destructive" });
    }
  }

  dispose(): void {
    this.task?.stop();
    this.task = null;
  }
}
