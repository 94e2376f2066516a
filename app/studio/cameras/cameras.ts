// The camera roster: the saved cameras, which one is selected, and each one's live source (webcam stream,
// IP camera live view or still photo). Kept apart from capture so a new kind of source lands here alone.
import { camerasApi } from "../../lib/api/cameras";
import { errorDetail } from "../../lib/api/errors";
import type { z } from "zod";
import type { Camera, ipCameraAddressSchema, ipCameraCreateSchema } from "../../schemas/cameras";
import { webcamFailureAlert, cameraErrorMessage } from "./camera-errors";
import { blobToDataUrl } from "../frames/frame-grabber";
import type { LiveStatus } from "./ip-live";
import { ipLiveMedia, isIpCamera, liveSourcePatch, snapshotThumbnail, streamMedia, type SourceMedia } from "./ip-source";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import { takeThumbnail } from "./thumbnails";
import { openAnyWebcam, openSavedWebcam, openWebcam, stopStream, type SavedWebcamResult, type WebcamMatch } from "./webcam";
import type { WebcamDevice } from "./webcam-types";

export const STATIC_PHOTO_MODEL = "Static Photo";
/** The original app's throw-away webcam model: such cameras are deleted once at load. */
export const LEGACY_WEBCAM_MODEL = "WebRTC Webcam";

export type SourceStatus = "connecting" | "live" | "offline" | "error";

export interface SourceState {
  status: SourceStatus;
  /** A webcam's stream (thumbnails, USB controls); null for an IP camera. */
  stream: MediaStream | null;
  /** What the preview <video> plays: the webcam stream or the IP camera's live view. */
  media: SourceMedia | null;
  /** An IP camera's live-view status (codec, transcoding, offline reason) while it is watched. */
  live: LiveStatus | null;
  error: string | null;
  /** The local camera a live webcam shows, and how it was found (it may not be the one saved). */
  device: { label: string; by: WebcamMatch } | null;
  /** The saved webcam isn't here but this device has a camera: "Use this device's camera" may open it. */
  offerAny: boolean;
}

export interface CamerasState {
  camerasLoading: boolean;
  cameras: Camera[];
  selectedCameraId: string | null;
  sources: Record<string, SourceState>;
}

export function isStaticPhoto(camera: Pick<Camera, "model">): boolean {
  return camera.model === STATIC_PHOTO_MODEL;
}

/** Add IP Camera's fields, and an IP camera's address (a stream URL, or a host with its login). */
/** How often the roster rereads IP cameras' statuses (another tab, a monitor or the camera itself changes them). */
export const IP_STATUS_REFRESH_MS = 10_000;
/** How often while a camera says "checking PTZ…": the check ends seconds after the add, and the controls come with it. */
export const PTZ_CHECK_REFRESH_MS = 1_500;

export type IpCameraInput = z.input<typeof ipCameraCreateSchema>;
export type IpCameraAddress = z.input<typeof ipCameraAddressSchema>;

export class CameraRoster {
  readonly store = createStore<CamerasState>({ camerasLoading: true, cameras: [], selectedCameraId: null, sources: {} });
  private disposed = false;
  private statusTimer: ReturnType<typeof setInterval> | null = null;
  private ptzCheckTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly notify: Notifier) {}

  /** Loads the saved cameras (dropping legacy throw-away webcams) and selects the first; `onListed` runs once the list is in. */
  async load({ onListed }: { onListed?: () => void } = {}): Promise<void> {
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
    onListed?.();
    // A camera added while the list was loading (Add Camera works meanwhile) is kept, and stays selected:
    // the list may have been read before it was saved.
    const loaded = new Set(cameras.map((c) => c.id));
    const addedMeanwhile = this.store.get().cameras.filter((c) => !loaded.has(c.id));
    this.store.set({ cameras: [...cameras, ...addedMeanwhile], camerasLoading: false });
    this.followIpStatuses();
    const first = cameras[0];
    if (first && this.store.get().selectedCameraId === null) await this.selectCamera(first.id);
  }

  dispose(): void {
    this.disposed = true;
    this.followIpStatuses();
    for (const source of Object.values(this.store.get().sources)) stopStream(source.stream);
  }

  /** Rereads the list every IP_STATUS_REFRESH_MS while the user has IP cameras (and the studio is not disposed). */
  private followIpStatuses(): void {
    const wanted = !this.disposed && this.store.get().cameras.some(isIpCamera);
    if (wanted && this.statusTimer === null) this.statusTimer = setInterval(() => void this.refreshIpStatuses(), IP_STATUS_REFRESH_MS);
    if (!wanted && this.statusTimer !== null) {
      clearInterval(this.statusTimer);
      this.statusTimer = null;
    }
    const checking = !this.disposed && this.store.get().cameras.some((c) => c.ip?.ptzChecking);
    if (checking && this.ptzCheckTimer === null) {
      this.ptzCheckTimer = setTimeout(() => {
        this.ptzCheckTimer = null;
        void this.refreshIpStatuses().finally(() => this.followIpStatuses());
      }, PTZ_CHECK_REFRESH_MS);
    }
    if (this.disposed && this.ptzCheckTimer !== null) {
      clearTimeout(this.ptzCheckTimer);
      this.ptzCheckTimer = null;
    }
  }

  /** IP cameras' statuses and IP details (PTZ found, stream state) as the server has them now; names and pictures stay (a failed read waits for the next round). */
  async refreshIpStatuses(): Promise<void> {
    // A hidden tab shows nothing: the next round after it is shown again reads the list.
    if (typeof document !== "undefined" && document.hidden) return;
    let listed: Camera[];
    try {
      listed = await camerasApi.list();
    } catch {
      return;
    }
    if (this.disposed) return;
    const fresh = new Map(listed.map((c) => [c.id, c]));
    this.store.set((state) => ({
      cameras: state.cameras.map((camera) => {
        const now = fresh.get(camera.id);
        if (!now || !isIpCamera(camera)) return camera;
        if (now.status === camera.status && now.statusReason === camera.statusReason && JSON.stringify(now.ip) === JSON.stringify(camera.ip)) return camera;
        return { ...camera, status: now.status, statusReason: now.statusReason, ip: now.ip };
      }),
    }));
  }

  get selectedCamera(): Camera | null {
    const { cameras, selectedCameraId } = this.store.get();
    return cameras.find((c) => c.id === selectedCameraId) ?? null;
  }

  /** Whether the selected camera's picture is live now (a playing webcam or a present photo). */
  get selectedIsLive(): boolean {
    const { selectedCameraId, sources } = this.store.get();
    return selectedCameraId !== null && sources[selectedCameraId]?.status === "live";
  }

  /** Updates a camera's source; a new webcam stream brings its preview media along. */
  private setSource(cameraId: string, source: Partial<SourceState>): void {
    const patch = "stream" in source && !("media" in source) ? { ...source, media: source.stream ? streamMedia(source.stream) : null } : source;
    this.store.set((state) => ({
      sources: {
        ...state.sources,
        [cameraId]: { status: "connecting", stream: null, media: null, live: null, error: null, device: null, offerAny: false, ...state.sources[cameraId], ...patch },
      },
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
    if (isIpCamera(camera)) {
      // A new media object makes the preview attach afresh (a new socket): "Try again" after offline.
      if (!source?.media || source.status === "offline" || source.status === "error") this.watchIpCamera(camera.id);
      return;
    }
    if (source?.stream && source.status === "live") return;
    await this.connectWebcam(camera);
  }

  /** Gives an IP camera its live view as preview media; its status follows the live socket. */
  private watchIpCamera(cameraId: string): void {
    const media = ipLiveMedia(cameraId, (live) => {
      // A status from a view since replaced (or a camera since deleted) changes nothing.
      if (this.store.get().sources[cameraId]?.media !== media) return;
      this.setSource(cameraId, liveSourcePatch(live));
      // The row says it too (as the server records it), so the card keeps the last word once another camera is shown.
      this.store.set((state) => ({
        cameras: state.cameras.map((c) =>
          c.id === cameraId && (c.status !== live.state || c.statusReason !== live.reason) ? { ...c, status: live.state, statusReason: live.reason } : c,
        ),
      }));
    });
    this.setSource(cameraId, { status: "connecting", stream: null, media, live: null, error: null });
  }

  /** Adds a network camera (camreg's createIp); field errors are the caller's to show, so they are thrown. */
  async addIpCamera(input: IpCameraInput): Promise<Camera> {
    const camera = await camerasApi.createIp(input);
    this.store.set((state) => ({ cameras: [...state.cameras, camera] }));
    this.followIpStatuses();
    await this.selectCamera(camera.id);
    void this.refreshIpThumbnail(camera.id);
    return camera;
  }

  /** New address or credentials for an IP camera (camreg's updateIp); its live view restarts. */
  async updateIpCamera(id: string, input: IpCameraAddress): Promise<Camera> {
    const camera = await camerasApi.updateIp(id, input);
    this.replaceCamera(camera);
    this.followIpStatuses();
    if (this.store.get().selectedCameraId === id) this.watchIpCamera(id);
    void this.refreshIpThumbnail(id);
    return camera;
  }

  private async refreshIpThumbnail(cameraId: string): Promise<void> {
    try {
      this.replaceCamera(await camerasApi.setThumbnail(cameraId, await snapshotThumbnail(cameraId)));
    } catch (error) {
      console.warn("Thumbnail update failed", error);
    }
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
      stream
        .getVideoTracks()[0]
        ?.addEventListener("ended", () => this.setSource(camera.id, { status: "offline", stream: null, error: "The webcam was disconnected.", device: null }));
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
    if (camera && !isStaticPhoto(camera) && !isIpCamera(camera)) await this.connectWebcam(camera, openAnyWebcam);
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
    this.followIpStatuses();
    const next = remaining[0];
    if (selectedCameraId === id && next) await this.selectCamera(next.id);
  }

  private replaceCamera(updated: Camera): void {
    this.store.set((state) => ({ cameras: state.cameras.map((c) => (c.id === updated.id ? updated : c)) }));
  }

  /** Takes a small frame from a live stream for the camera card. */
  async refreshThumbnail(cameraId: string, stream: MediaStream): Promise<void> {
    try {
      const dataUrl = await takeThumbnail(stream);
      if (dataUrl) this.replaceCamera(await camerasApi.setThumbnail(cameraId, dataUrl));
    } catch (error) {
      console.warn("Thumbnail update failed", error);
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
      if (!isStaticPhoto(updated) && !isIpCamera(updated)) await this.connectWebcam(updated);
    } catch (error) {
      this.notify.toast({ title: "Failed to update settings", description: errorDetail(error, "An error occurred"), variant: "destructive" });
    }
  }
}
