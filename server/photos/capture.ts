// A photo of an IP camera taken on the server: the full-resolution picture from the stream the server already pulls
// (the kept GOP, the camera's snapshot URL, or one frame of its main stream; by the process that owns the camera,
// docs/decisions/0008-camera-owner.md), saved as any photo is. The studio's capture of an IP camera and local
// vision's event photos use it, so the picture never goes to the browser and back.
import type { Photo, PhotoCaptureInput } from "#app/schemas/photos";
import type { DB } from "#db/index";
import { loadCameraSource } from "../cameras/source";
import { SnapshotError, type LiveStreams } from "../cameras/stream/index";
import { ProblemError } from "../errors";
import { cameraFrame } from "../images/frame";
import type { BlobStore } from "../storage/blob-store";
import { createPhoto } from "./service";

export async function captureFromCamera(
  db: DB,
  streams: Pick<LiveStreams, "snapshot">,
  blobs: BlobStore,
  userId: string,
  cameraId: string,
  input: PhotoCaptureInput,
): Promise<Photo> {
  // 404 for another user's camera, a camera that is gone, or one that is not an IP camera.
  const source = await loadCameraSource(db, userId, cameraId);
  let picture;
  try {
    picture = await streams.snapshot(source);
  } catch (error) {
    if (error instanceof SnapshotError) throw new ProblemError(503, `The camera gave no picture: ${error.reason}`);
    throw error;
  }
  const frame = cameraFrame(picture);
  return createPhoto(db, blobs, userId, { ...input, cameraId, frame, videoWidth: frame.width, videoHeight: frame.height });
}
