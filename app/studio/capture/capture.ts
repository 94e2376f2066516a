// Capture: the capture settings, the Capture button's single/burst/timelapse plans with their progress,
// and frames of the selected camera's picture for photos and AI calls (from the preview element React
// hands in; an IP camera's photos are taken and saved by the server, at full resolution). Cameras are read, never changed, here.
import { camerasApi } from "../../lib/api/cameras";
import { photosApi } from "../../lib/api/photos";
import type { Camera } from "../../schemas/cameras";
import type { Photo } from "../../schemas/photos";
import type { CameraRoster } from "../cameras/cameras";
import { runCapturePlan, type CaptureProgress, type RunningCapture } from "./capture-scheduler";
import { fitLongEdge, grabFrame, JPEG_QUALITY, sourceSize, type FrameSource, type GrabbedFrame, type GrabOptions } from "../frames/frame-grabber";
import { isIpCamera, isServerCapture, serverCapture, type ServerCapture } from "../cameras/ip-source";
import type { Library } from "./library";
import type { Notifier } from "../notifier";
import { DEFAULT_CAPTURE_SETTINGS, loadJson, sanitizeCaptureSettings, saveJson, type CaptureSettings } from "../settings";
import { createStore } from "../store";

/** Overlap one upload with the next frame; more only competes for the CPU that keeps the cadence. */
const MAX_PARALLEL_UPLOADS = 2;
const CAPTURE_SETTINGS_KEY = "captureSettings";

export interface CaptureState {
  capture: CaptureSettings;
  progress: CaptureProgress | null;
  /** The story that captures are attached to while story mode runs. */
  activeStoryId: string | null;
}

type PhotoExtra = Partial<Parameters<typeof photosApi.create>[0]>;

/** What capture needs from the rest of the studio. */
export interface CaptureHost {
  cameras: Pick<CameraRoster, "selectedCamera" | "selectedIsLive">;
  library: Pick<Library, "addPhoto">;
  notify: Notifier;
}

export class CaptureController {
  readonly store = createStore<CaptureState>({ capture: DEFAULT_CAPTURE_SETTINGS, progress: null, activeStoryId: null });
  private preview: FrameSource | null = null;
  private running: RunningCapture | null = null;

  constructor(private readonly host: CaptureHost) {}

  /** Reads the settings saved in this browser. */
  load(): void {
    this.store.set({ capture: sanitizeCaptureSettings(loadJson(CAPTURE_SETTINGS_KEY)) });
  }

  dispose(): void {
    this.running?.stop();
  }

  setPreviewElement(element: FrameSource | null): void {
    this.preview = element;
  }

  setActiveStory(storyId: string | null): void {
    this.store.set({ activeStoryId: storyId });
  }

  updateCaptureSettings(patch: Partial<CaptureSettings>): void {
    const capture = sanitizeCaptureSettings({ ...this.store.get().capture, ...patch });
    this.store.set({ capture });
    saveJson(CAPTURE_SETTINGS_KEY, capture);
  }

  /**
   * The current picture of the selected camera (live video or still photo) as a JPEG, for AI calls;
   * null while there is none to take.
   */
  async grabPreviewFrame(options: GrabOptions): Promise<GrabbedFrame | null> {
    if (this.captureBlocker() || !this.preview || !sourceSize(this.preview).width) return null;
    return grabFrame(this.preview, options);
  }

  /**
   * The current picture of the selected camera as a bitmap for the local detector (no JPEG round trip),
   * downscaled to `maxLongEdge`; null while there is none to take.
   */
  async grabPreviewBitmap(maxLongEdge: number): Promise<ImageBitmap | null> {
    if (this.captureBlocker() || !this.preview) return null;
    const size = sourceSize(this.preview);
    if (!size.width) return null;
    const { width, height } = fitLongEdge(size.width, size.height, maxLongEdge);
    return createImageBitmap(this.preview, { resizeWidth: width, resizeHeight: height, resizeQuality: "low" });
  }

  /** Why no frame can be captured now (the spec's alert text), or null when one can. */
  private captureBlocker(): string | null {
    const camera = this.host.cameras.selectedCamera;
    if (!camera) return "No camera selected";
    if (!this.preview || !this.host.cameras.selectedIsLive) return "No video stream available. Please add a camera first.";
    // An IP camera's photo is the server's snapshot: it does not wait for the preview's picture size.
    if (isIpCamera(camera)) return null;
    const { width, height } = sourceSize(this.preview);
    if (!width || !height) return "Video metadata not loaded. Please wait a moment and try again.";
    return null;
  }

  /**
   * Grabs and saves one photo; rejects with the spec's message when it cannot. The frame is taken at
   * the moment of the call (an IP camera's: the main stream's next frame, at full resolution); encoding
   * and upload follow.
   */
  async captureOne(options: { quality?: number; storyId?: string | null; extra?: PhotoExtra } = {}): Promise<Photo> {
    const { frame, camera } = await this.grabPhotoFrame(options.quality);
    return this.savePhoto(frame, { ...options, camera });
  }

  /**
   * The selected camera's picture now, at full resolution, as a photo would keep it (an IP camera's: taken by the server when saved),
   * with the camera; rejects with the spec's message when there is none. Save it later with `savePhoto`.
   */
  async grabPhotoFrame(quality: number = JPEG_QUALITY.capture): Promise<{ frame: GrabbedFrame | ServerCapture; camera: Camera | null }> {
    const camera = this.host.cameras.selectedCamera;
    const blocker = this.captureBlocker();
    if (blocker) throw new Error(blocker);
    const frame = camera && isIpCamera(camera) ? serverCapture(camera.id) : await grabFrame(this.preview!, { quality });
    return { frame, camera };
  }

  /**
   * Saves a frame grabbed earlier as a photo (story mode saves the very frame a caption was made from)
   * and adds it to the library. An IP camera's photo is taken and saved by the server at this moment.
   */
  async savePhoto(frame: GrabbedFrame | ServerCapture, options: { camera?: Camera | null; storyId?: string | null; extra?: PhotoExtra } = {}): Promise<Photo> {
    const camera = options.camera === undefined ? this.host.cameras.selectedCamera : options.camera;
    const fields = { captureMode: this.store.get().capture.mode, storyId: options.storyId ?? this.store.get().activeStoryId, frameRate: camera?.frameRate ?? null };
    const photo = isServerCapture(frame)
      ? await camerasApi.capture(frame.serverCapture, { ...fields, ...options.extra })
      : await photosApi.create({ ...fields, cameraId: camera?.id ?? null, imageData: frame.dataUrl, videoWidth: frame.width, videoHeight: frame.height, ...options.extra });
    this.host.library.addPhoto(photo);
    return photo;
  }

  /** The Capture button: one photo, or a burst or timelapse that honours its settings. */
  capture(): void {
    if (this.running) return;
    const settings = this.store.get().capture;
    const plan =
      settings.mode === "single"
        ? { count: 1, intervalMs: 0 }
        : settings.mode === "burst"
          ? { count: settings.burstCount, intervalMs: settings.burstIntervalMs }
          : { count: settings.timelapseInfinite ? null : settings.timelapseCount, intervalMs: settings.timelapseIntervalMs };
    const blocker = this.captureBlocker();
    if (blocker) {
      this.host.notify.alert(blocker, "Capture");
      return;
    }
    // Frames are taken on the schedule; their uploads overlap (a few at once) so a slow save
    // doesn't stretch the interval.
    const uploads = new Set<Promise<Photo>>();
    let uploadError: string | null = null;
    this.running = runCapturePlan(plan, {
      capture: async () => {
        const upload = this.captureOne();
        uploads.add(upload);
        upload.then(
          () => uploads.delete(upload),
          (error: unknown) => {
            uploads.delete(upload);
            uploadError ??= error instanceof Error ? error.message : String(error);
          },
        );
        while (uploads.size >= MAX_PARALLEL_UPLOADS) await Promise.race([...uploads].map((u) => u.catch(() => undefined)));
        if (uploadError) throw new Error(uploadError);
      },
      // The final update (running: false) is left to the end of the run below, once the last uploads have
      // settled, so the progress stays up until every photo taken is saved.
      onProgress: (progress) => {
        if (progress.running) this.store.set({ progress: settings.mode === "single" ? null : progress });
      },
    });
    void this.running.done.then(async (result) => {
      await Promise.allSettled(uploads);
      this.running = null;
      this.store.set({ progress: null });
      const error = result.error ?? uploadError;
      if (error) this.host.notify.toast({ title: "Capture stopped", description: error, variant: "destructive" });
    });
  }

  stopCapture(): void {
    this.running?.stop();
  }
}
