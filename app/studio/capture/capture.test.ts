// Capture through its narrow host: the Capture button explains with the spec's alert why nothing can be taken
// (no camera, no live picture, no picture size yet), and AI frames are simply absent meanwhile.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { camerasApi } from "../../lib/api/cameras";
import { photosApi } from "../../lib/api/photos";
import { CaptureController, type CaptureHost } from "./capture";
import type { FrameSource } from "../frames/frame-grabber";

function harness() {
  const alerts: string[] = [];
  const cameras = { selectedCamera: null as CaptureHost["cameras"]["selectedCamera"], selectedIsLive: false };
  const host: CaptureHost = {
    cameras,
    library: { addPhoto: vi.fn() },
    notify: { toast: vi.fn(), alert: (message, title) => void alerts.push(`${title}: ${message}`) },
  };
  return { capture: new CaptureController(host), cameras, alerts, host };
}

const camera = { id: "cam-1", name: "Cam", frameRate: null } as unknown as NonNullable<CaptureHost["cameras"]["selectedCamera"]>;

describe("CaptureController", () => {
  // Node has no DOM: a class stands in for HTMLVideoElement so an image-like preview is told apart.
  beforeEach(() => vi.stubGlobal("HTMLVideoElement", class {}));
  afterEach(() => vi.unstubAllGlobals());

  it("says why nothing can be captured, in the spec's words, and grabs no AI frame meanwhile", async () => {
    const h = harness();
    // A still picture whose size isn't known yet.
    h.capture.setPreviewElement({ naturalWidth: 0, naturalHeight: 0 } as unknown as FrameSource);
    h.capture.capture();
    h.cameras.selectedCamera = camera;
    h.capture.capture();
    h.cameras.selectedIsLive = true;
    h.capture.capture();
    expect(h.alerts).toEqual([
      "Capture: No camera selected",
      "Capture: No video stream available. Please add a camera first.",
      "Capture: Video metadata not loaded. Please wait a moment and try again.",
    ]);
    await expect(h.capture.grabPreviewFrame({ quality: 0.6 })).resolves.toBeNull();
    await expect(h.capture.captureOne()).rejects.toThrow("Video metadata not loaded");
    expect(h.host.library.addPhoto).not.toHaveBeenCalled();
    expect(h.capture.store.get().progress).toBeNull();
  });

  it("has the server take and save an IP camera's photo at full resolution, not the preview, and takes its AI frames from the preview", async () => {
    const h = harness();
    h.cameras.selectedCamera = { ...camera, source: "ip" } as typeof camera;
    h.cameras.selectedIsLive = true;
    // The preview (the 640×360 sub-stream) has no picture yet: the photo does not wait for it.
    h.capture.setPreviewElement({ naturalWidth: 0, naturalHeight: 0 } as unknown as FrameSource);
    const capture = vi.spyOn(camerasApi, "capture").mockImplementation(async (id, body) => ({ id: "photo-1", cameraId: id, ...body }) as never);
    const create = vi.spyOn(photosApi, "create");
    await h.capture.captureOne();
    expect(capture).toHaveBeenCalledWith("cam-1", expect.objectContaining({ captureMode: "single" }));
    expect(create).not.toHaveBeenCalled();
    expect(h.host.library.addPhoto).toHaveBeenCalledTimes(1);
    await expect(h.capture.grabPreviewFrame({ quality: 0.6 })).resolves.toBeNull();
    vi.restoreAllMocks();
  });

  it("saves an IP camera's photo grabbed earlier (local vision's event photo) through the server's capture, with its extras", async () => {
    const h = harness();
    h.cameras.selectedCamera = { ...camera, source: "ip" } as typeof camera;
    h.cameras.selectedIsLive = true;
    h.capture.setPreviewElement({ naturalWidth: 0, naturalHeight: 0 } as unknown as FrameSource);
    const capture = vi.spyOn(camerasApi, "capture").mockImplementation(async (id, body) => ({ id: "photo-2", cameraId: id, ...body }) as never);
    const create = vi.spyOn(photosApi, "create");
    const { frame, camera: grabbedFrom } = await h.capture.grabPhotoFrame();
    // Selecting another camera before the save does not change which camera the photo is taken from.
    h.cameras.selectedCamera = { ...camera, id: "cam-2" } as typeof camera;
    const extra = { autoCapture: true, visionEvent: true, detectionQuery: "Door: person crossed in", detectionBoxes: [{ x_min: 0.1, y_min: 0.1, x_max: 0.2, y_max: 0.3 }] };
    await h.capture.savePhoto(frame, { camera: grabbedFrom, extra });
    expect(capture).toHaveBeenCalledWith("cam-1", expect.objectContaining(extra));
    expect(create).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
