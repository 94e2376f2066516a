// The studio's browser engine: cameras and their live sources, selection, capture. Framework-free;
// React components subscribe to `engine.store` and call its methods.
import { errorDetail } from "../lib/api/errors";
import { camerasApi } from "../lib/api/cameras";
import { photosApi } from "../lib/api/photos";
import type { Camera } from "../schemas/cameras";
import type { Photo } from "../schemas/photos";
import { webcamFailureAlert, cameraErrorMessage } from "./camera-errors";
import { runCapturePlan, type CaptureProgress, type RunningCapture } from "./capture-scheduler";
import { blobToDataUrl, grabFrame, JPEG_QUALITY, sourceSize, type FrameSource, type GrabbedFrame, type GrabOptions } from "./frame-grabber";
import { Library } from "./library";
import type { Notifier } from "./notifier";
import { OverlayController } from "./overlays";
import { DEFAULT_CAPTURE_SETTINGS, loadJson, sanitizeCaptureSettings, saveJson, type CaptureSettings } from "./settings";
import { createStore } from "./store";
import { openAnyWebcam, openSavedWebcam, openWebcam, stopStream, type SavedWebcamResult, type WebcamDevice, type WebcamMatch } from "./webcam";

export const STATIC_PHOTO_MODEL = "Static Photo";
/** The original app's throw-away webcam model: such cameras are deleted once at load. */
export const LEGACY_WEBCAM_MODEL = "WebRTC Webcam";
const THUMBNAIL_TRIES = 10;
const THUMBNAIL_RETRY_MS = 300;
const THUMBNAIL_LONG_EDGE = 320;
/** Overlap one upload with the next frame; more only competes for the CPU that keeps the cadence. */
const MAX_PARALLEL_UPLOADS = 2;

export type SourceStatus = "connecting" | "live" | "offline" | "error";

export interface SourceState {
  status: SourceStatus;
  stream: MediaStream | null;
  error: string | null;
  /** The local camera a live webcam shows, and how it was found (it may not be the one saved). */
  device: { label: string; by: WebcamMatch } | null;
  /** The saved webcam isn't here but this device has a camera: "Use this device's camera" may open it. */
  offerAny: boolean;
}

export interface StudioState {
  camerasLoading: boolean;
  cameras: Camera[];
  selectedCameraId: string | null;
  sources: Record<string, SourceState>;
  capture: CaptureSettings;
  progress: CaptureProgress | null;
  showGrid: boolean;
  /** The last click on the preview, -1…1 on each axis (click-to-move uses it). */
  lastClick: { x: number; y: number; at: number } | null;
  /** The story that captures are attached to while story mode runs. */
  activeStoryId: string | null;
}

const CAPTURE_SETTINGS_KEY = "captureSettings";

export function isStaticPhoto(camera: Pick<Camera, "model">): boolean {
  return camera.model === STATIC_PHOTO_MODEL;
}

export class StudioEngine {
  readonly store = createStore<StudioState>({
    camerasLoading: true,
    cameras: [],
    selectedCameraId: null,
    sources: {},
    capture: DEFAULT_CAPTURE_SETTINGS,
    progress: null,
    showGrid: false,
    lastClick: null,
    activeStoryId: null,
  });
  readonly library: Library;
  /** LUT grading, histogram and zebra over the preview (their settings and the LUT library). */
  readonly overlays: OverlayController;
  private preview: FrameSource | null = null;
  private running: RunningCapture | null = null;
  private disposed = false;

  constructor(private readonly notify: Notifier) {
    this.library = new Library(notify);
    this.overlays = new OverlayController(notify);
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.store.set({ capture: sanitizeCaptureSettings(loadJson(CAPTURE_SETTINGS_KEY)) });
    let cameras: Camera[] = [];
    try {
      cameras = await camerasApi.list();
      const legacy = cameras.filter((c) => c.model === LEGACY_WEBCAM_MODEL);
      await Promise.all(legacy.map((c) => camerasApi.remove(c.id).catch(() => {})));
      cameras = cameras.filter((c) => c.model !== LEGACY_WEBCAM_MODEL);
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to load cameras"), variant: "destructive" });
    }
    if (this.disposed) return;
    // The library does not wait for the first webcam to connect.
    void this.library.loadPhotos();
    // A camera added while the list was loading (Add Camera works meanwhile) is kept, and stays selected:
    // the list may have been read before it was saved.
    const loaded = new Set(cameras.map((c) => c.id));
    const addedMeanwhile = this.store.get().cameras.filter((c) => !loaded.has(c.id));
    this.store.set({ cameras: [...cameras, ...addedMeanwhile], camerasLoading: false });
    const first = cameras[0];
    if (first && this.store.get().selectedCameraId === null) await this.selectCamera(first.id);
  }

  dispose(): void {
    this.disposed = true;
    this.running?.stop();
    this.overlays.dispose();
    for (const source of Object.values(this.store.get().sources)) stopStream(source.stream);
  }

  // ---- cameras ---------------------------------------------------------------------------------

  get selectedCamera(): Camera | null {
    const { cameras, selectedCameraId } = this.store.get();
    return cameras.find((c) => c.id === selectedCameraId) ?? null;
  }

  private setSource(cameraId: string, source: Partial<SourceState>): void {
    this.store.set((state) => ({
      sources: { ...state.sources, [cameraId]: { status: "connecting", stream: null, error: null, device: null, offerAny: false, ...state.sources[cameraId], ...source } },
    }));
  }

  async selectCamera(id: string): Promise<void> {
    this.store.set({ selectedCameraId: id });
    const camera = this.store.get().cameras.find((c) => c.id === id);
    if (!camera) return;
    if (isStaticPhoto(camera)) {
      this.setSource(id, { status: camera.imageUrl ? "live" : "error", error: camera.imageUrl ? null : "This photo is missing" });
      return;
    }
    const source = this.store.get().sources[id];
    if (source?.stream && source.status === "live") return;
    await this.connectWebcam(camera);
  }

  /**
   * Opens a saved webcam (by deviceId, so it re-attaches after a reload; on another device or browser by
   * the same label); offline when it is not here, offering this device's camera when there is one.
   */
  private async connectWebcam(camera: Camera, open: (camera: Camera) => Promise<SavedWebcamResult> = openSavedWebcam): Promise<MediaStream | null> {
    this.setSource(camera.id, { status: "connecting", error: null, offerAny: false });
    try {
      const result = await open(camera);
      if (result.kind !== "live") {
        const error = result.kind === "offer" ? "This webcam is not connected." : "No camera found on this device.";
        this.setSource(camera.id, { status: "offline", stream: null, error, device: null, offerAny: result.kind === "offer" });
        return null;
      }
      const { stream } = result;
      if (this.disposed) {
        stopStream(stream);
        return null;
      }
      stopStream(this.store.get().sources[camera.id]?.stream);
      this.setSource(camera.id, { status: "live", stream, error: null, device: { label: result.label, by: result.by }, offerAny: false });
      stream.getVideoTracks()[0]?.addEventListener("ended", () => this.setSource(camera.id, { status: "offline", stream: null, error: "The webcam was disconnected.", device: null }));
      return stream;
    } catch (error) {
      const offline = (error as { name?: string }).name === "OverconstrainedError" || (error as { name?: string }).name === "NotFoundError";
      this.setSource(camera.id, { status: offline ? "offline" : "error", stream: null, error: cameraErrorMessage(error), device: null });
      return null;
    }
  }

  /** "Use this device's camera" for a saved webcam that isn't here; remembered in this browser. */
  async useThisDevicesCamera(cameraId: string): Promise<void> {
    const camera = this.store.get().cameras.find((c) => c.id === cameraId);
    if (camera && !isStaticPhoto(camera)) await this.connectWebcam(camera, openAnyWebcam);
  }

  async addWebcam(device: WebcamDevice): Promise<Camera | null> {
    let stream: MediaStream;
    try {
      stream = await openWebcam(device.deviceId);
    } catch (error) {
      this.notify.alert(webcamFailureAlert(error), "Unable to access webcam");
      return null;
    }
    let camera: Camera;
    try {
      // The label is kept too: on another device or browser, where the id differs, the camera is found by it.
      camera = await camerasApi.create({ name: device.label || "Webcam", model: "", status: "online", deviceId: device.deviceId, deviceLabel: device.label.slice(0, 255) });
    } catch (error) {
      stopStream(stream);
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to add camera"), variant: "destructive" });
      return null;
    }
    this.store.set((state) => ({ cameras: [...state.cameras, camera], selectedCameraId: camera.id }));
    this.setSource(camera.id, { status: "live", stream, error: null, device: { label: device.label, by: "deviceId" } });
    void this.refreshThumbnail(camera.id, stream);
    return camera;
  }

  /** Adds a picked image file as a static-photo camera named after the file. */
  async addPhotoCamera(file: File): Promise<Camera | null> {
    const name = file.name.replace(/\.[^.]+$/, "") || "Photo";
    try {
      const thumbnail = await blobToDataUrl(file);
      const camera = await camerasApi.create({ name, model: STATIC_PHOTO_MODEL, status: "online", thumbnail });
      this.store.set((state) => ({ cameras: [...state.cameras, camera] }));
      await this.selectCamera(camera.id);
      this.notify.toast({ title: "Photo added", description: `${name} has been added as a static camera source.` });
      return camera;
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to add photo. Please try again."), variant: "destructive" });
      return null;
    }
  }

  /** Saves a new name when it is non-empty after trimming and differs; returns whether it changed. */
  async renameCamera(id: string, name: string): Promise<boolean> {
    const camera = this.store.get().cameras.find((c) => c.id === id);
    const trimmed = name.trim();
    if (!camera || !trimmed || trimmed === camera.name) return false;
    try {
      const updated = await camerasApi.rename(id, trimmed);
      this.replaceCamera(updated);
      return true;
    } catch {
      this.notify.alert("Failed to rename camera", "Rename failed");
      return false;
    }
  }

  async deleteCamera(id: string): Promise<void> {
    try {
      await camerasApi.remove(id);
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to delete camera"), variant: "destructive" });
      return;
    }
    stopStream(this.store.get().sources[id]?.stream);
    const { cameras, selectedCameraId, sources } = this.store.get();
    const remaining = cameras.filter((c) => c.id !== id);
    const { [id]: _removed, ...rest } = sources;
    this.store.set({ cameras: remaining, sources: rest, selectedCameraId: selectedCameraId === id ? null : selectedCameraId });
    const next = remaining[0];
    if (selectedCameraId === id && next) await this.selectCamera(next.id);
  }

  private replaceCamera(updated: Camera): void {
    this.store.set((state) => ({ cameras: state.cameras.map((c) => (c.id === updated.id ? updated : c)) }));
  }

  /** Takes a small frame from a live stream for the camera card (up to 10 tries, 300 ms apart). */
  async refreshThumbnail(cameraId: string, stream: MediaStream): Promise<void> {
    const video = document.createElement("video");
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    try {
      await video.play().catch(() => {});
      for (let attempt = 0; attempt < THUMBNAIL_TRIES; attempt++) {
        if (video.videoWidth > 0 && video.readyState >= 2) {
          const frame = await grabFrame(video, { quality: JPEG_QUALITY.thumbnail, maxLongEdge: THUMBNAIL_LONG_EDGE });
          this.replaceCamera(await camerasApi.setThumbnail(cameraId, frame.dataUrl));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, THUMBNAIL_RETRY_MS));
      }
    } catch (error) {
      console.warn("Thumbnail update failed", error);
    } finally {
      video.srcObject = null;
    }
  }

  /** Applies a resolution and frame rate: saved on the camera, then the stream reconnects with them. */
  async applyVideoSettings(settings: { videoWidth: number; videoHeight: number; frameRate: number }): Promise<void> {
    const camera = this.selectedCamera;
    if (!camera) {
      this.notify.toast({ title: "Failed to update settings", description: "No camera selected", variant: "destructive" });
      return;
    }
    try {
      const updated = await camerasApi.setVideo(camera.id, settings);
      this.replaceCamera(updated);
      this.notify.toast({ title: "Video settings updated", description: "Reconnecting camera with new settings..." });
      if (!isStaticPhoto(updated)) await this.connectWebcam(updated);
    } catch (error) {
      this.notify.toast({ title: "Failed to update settings", description: errorDetail(error, "An error occurred"), variant: "destructive" });
    }
  }

  // ---- preview ---------------------------------------------------------------------------------

  setPreviewElement(element: FrameSource | null): void {
    this.preview = element;
  }

  toggleGrid(): void {
    this.store.set((state) => ({ showGrid: !state.showGrid }));
  }

  reportClick(position: { x: number; y: number }): void {
    this.store.set({ lastClick: { ...position, at: Date.now() } });
  }

  setActiveStory(storyId: string | null): void {
    this.store.set({ activeStoryId: storyId });
  }

  /**
   * The current picture of the selected camera (live video or still photo) as a JPEG, for AI calls;
   * null while there is none to take.
   */
  async grabPreviewFrame(options: GrabOptions): Promise<GrabbedFrame | null> {
    if (this.captureBlocker() || !this.preview) return null;
    return grabFrame(this.preview, options);
  }

  // ---- capture ---------------------------------------------------------------------------------

  updateCaptureSettings(patch: Partial<CaptureSettings>): void {
    const capture = sanitizeCaptureSettings({ ...this.store.get().capture, ...patch });
    this.store.set({ capture });
    saveJson(CAPTURE_SETTINGS_KEY, capture);
  }

  /** Why no frame can be captured now (the spec's alert text), or null when one can. */
  private captureBlocker(): string | null {
    const camera = this.selectedCamera;
    if (!camera) return "No camera selected";
    const live = this.store.get().sources[camera.id]?.status === "live";
    if (!this.preview || !live) return "No video stream available. Please add a camera first.";
    const { width, height } = sourceSize(this.preview);
    if (!width || !height) return "Video metadata not loaded. Please wait a moment and try again.";
    return null;
  }

  /**
   * Grabs and saves one photo; rejects with the spec's message when it cannot. The frame is taken at
   * the moment of the call; encoding and upload follow.
   */
  async captureOne(options: { quality?: number; storyId?: string | null; extra?: Partial<Parameters<typeof photosApi.create>[0]> } = {}): Promise<Photo> {
    const camera = this.selectedCamera;
    const blocker = this.captureBlocker();
    if (blocker) throw new Error(blocker);
    const frame = await grabFrame(this.preview!, { quality: options.quality ?? JPEG_QUALITY.capture });
    return this.savePhoto(frame, { ...options, camera });
  }

  /**
   * Saves a frame grabbed earlier as a photo (story mode saves the very frame a caption was made from)
   * and adds it to the library.
   */
  async savePhoto(
    frame: GrabbedFrame,
    options: { camera?: Camera | null; storyId?: string | null; extra?: Partial<Parameters<typeof photosApi.create>[0]> } = {},
  ): Promise<Photo> {
    const camera = options.camera === undefined ? this.selectedCamera : options.camera;
    const photo = await photosApi.create({
      cameraId: camera?.id ?? null,
      imageData: frame.dataUrl,
      captureMode: this.store.get().capture.mode,
      storyId: options.storyId ?? this.store.get().activeStoryId,
      videoWidth: frame.width,
      videoHeight: frame.height,
      frameRate: camera?.frameRate ?? null,
      ...options.extra,
    });
    this.library.addPhoto(photo);
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
      this.notify.alert(blocker, "Capture");
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
      if (error) this.notify.toast({ title: "Capture stopped", description: error, variant: "destructive" });
    });
  }

  stopCapture(): void {
    this.running?.stop();
  }
}
