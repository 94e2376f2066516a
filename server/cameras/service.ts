// Cameras and PTZ presets: the owner's rows only, rename rules enforced here too.
import { randomUUID } from "node:crypto";
import type { Camera, CameraCreateInput, CameraUpdateInput, CameraVideoSettings, Preset, PresetCreateInput } from "#app/schemas/cameras";
import type { DB } from "#db/index";
import type { CamerasTable, PresetsTable } from "#db/schema";
import type { Selectable } from "kysely";
import { notFound, ProblemError } from "../errors";
import type { Frame } from "../images/frame";
import { intakeImage } from "../images/intake";
import { blobKeys, blobReader, discardBlobPrefix, discardBlobs, putAll, type BlobStore } from "../storage/blob-store";
import * as q from "./queries";
import type { LiveStreams } from "./stream/index";

/** Start-up: statuses a stopped process left behind are not true any more (see resetStaleCameraStatuses). */
export async function resetCameraStatusesAtStartUp(db: DB): Promise<number> {
  return Number((await q.resetStaleCameraStatuses(db)).numUpdatedRows);
}

/** What a camera's picture may be: a static photo used as a camera source, so the photo limits apply. */
const PICTURE_LIMITS = { maxBytes: 15 * 1024 * 1024, maxPixels: 40_000_000 };

/**
 * `streamed`: whether a live app process pulls the camera now. An IP camera's 'online' written by a process that died
 * since, with no other to take the camera over, is shown as an idle stop would leave it. ('connecting' stays: a camera
 * just added or changed is written so before anything pulls it.)
 */
export function toCamera(row: Selectable<CamerasTable> & { streamed?: boolean }): Camera {
  const stale = row.source === "ip" && row.streamed === false && row.status === "online";
  const status = stale ? "offline" : row.status;
  const statusReason = stale ? null : row.status_reason;
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    status,
    statusReason,
    source: row.source,
    ip:
      row.source === "ip"
        ? {
            host: row.ip_host ?? "",
            path: shownPath(row.stream_url),
            streamState: status === "online" ? "streaming" : status === "connecting" ? "connecting" : statusReason ? "failing" : "idle",
            codec: row.video_codec,
            transcoded: row.video_codec !== null && row.video_codec !== "h264",
            hasSubStream: row.sub_stream_url !== null,
            ptzProtocol: (row.ptz_protocol as "onvif" | "visca" | "http-cgi" | null) ?? null,
            ptzChecking: row.ptz_checking,
          }
        : null,
    deviceId: row.device_id,
    deviceLabel: row.device_label,
    thumbnailUrl: row.thumbnail_key ? `/api/cameras/${row.id}/thumbnail?v=${row.thumbnail_etag}` : null,
    imageUrl: row.image_key ? `/api/cameras/${row.id}/image?v=${row.thumbnail_etag}` : null,
    videoWidth: row.video_width,
    videoHeight: row.video_height,
    frameRate: row.frame_rate,
    createdAt: row.created_at.toISOString(),
  };
}

/** Query parameters that may carry a login (some cameras take ?user=…&password=…): never shown. */
const LOGIN_PARAM = /user|pass|pwd|token|auth|key|sign/i;

/** The stream URL's path and its other query parameters (a channel, a sub-type), as the card shows them. */
function shownPath(streamUrl: string | null): string {
  if (!streamUrl) return "";
  try {
    const url = new URL(streamUrl);
    const params = [...url.searchParams].filter(([name]) => !LOGIN_PARAM.test(name));
    return url.pathname + (params.length ? `?${new URLSearchParams(params).toString()}` : "");
  } catch {
    return "";
  }
}

export async function listCameras(db: DB, userId: string): Promise<Camera[]> {
  return (await q.listCameras(db, userId)).map(toCamera);
}

export async function getCamera(db: DB, userId: string, id: string): Promise<Camera> {
  const row = await q.findCameraShown(db, userId, id);
  if (!row) throw notFound("Camera");
  return toCamera(row);
}

/** Stores the picture sent as a camera's thumbnail: the full image (a static photo's source) and a 320 px card thumbnail. */
async function storeThumbnail(blobs: BlobStore, userId: string, cameraId: string, picture: Frame) {
  const image = await intakeImage(picture.bytes, PICTURE_LIMITS);
  const key = blobKeys.cameraThumbnail(userId, cameraId, image.etag);
  const imageKey = blobKeys.cameraImage(userId, cameraId, image.etag, image.ext);
  await putAll(blobs, [
    [key, image.thumbnail],
    [imageKey, image.original],
  ]);
  return { key, imageKey, mimeType: image.mimeType, etag: image.etag };
}

const dropPictures = (blobs: BlobStore, picture: { key: string; imageKey: string } | null) => (picture ? discardBlobs(blobs, [picture.key, picture.imageKey]) : undefined);

/** A camera's input with its picture (`thumbnail`) as bytes, decoded at the HTTP edge. */
type WithPicture<T> = Omit<T, "thumbnail"> & { thumbnail?: Frame | null | undefined };

export async function createCamera(db: DB, blobs: BlobStore, userId: string, input: WithPicture<CameraCreateInput>): Promise<Camera> {
  const id = randomUUID();
  const thumbnail = input.thumbnail ? await storeThumbnail(blobs, userId, id, input.thumbnail) : null;
  try {
    const row = await q.insertCamera(db, {
      id,
      user_id: userId,
      name: input.name,
      model: input.model,
      status: input.status,
      device_id: input.deviceId ?? null,
      device_label: input.deviceLabel ?? null,
      image_key: thumbnail?.imageKey ?? null,
      image_mime_type: thumbnail?.mimeType ?? null,
      thumbnail_key: thumbnail?.key ?? null,
      thumbnail_etag: thumbnail?.etag ?? null,
    });
    return toCamera(row);
  } catch (error) {
    await dropPictures(blobs, thumbnail);
    throw error;
  }
}

/** Renames (name trimmed, non-empty, ≤ 100) or replaces the thumbnail. */
export async function updateCamera(db: DB, blobs: BlobStore, userId: string, id: string, input: WithPicture<CameraUpdateInput>): Promise<Camera> {
  const existing = await q.findCamera(db, userId, id);
  if (!existing) throw notFound("Camera");
  const thumbnail = input.thumbnail ? await storeThumbnail(blobs, userId, id, input.thumbnail) : null;
  const row = await q.updateCamera(db, userId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(thumbnail ? { thumbnail_key: thumbnail.key, thumbnail_etag: thumbnail.etag, image_key: thumbnail.imageKey, image_mime_type: thumbnail.mimeType } : {}),
  });
  if (!row) {
    await dropPictures(blobs, thumbnail);
    throw notFound("Camera");
  }
  if (thumbnail && existing.thumbnail_key && existing.thumbnail_key !== thumbnail.key) {
    await discardBlobs(blobs, [existing.thumbnail_key, existing.image_key]);
  }
  return toCamera(row);
}

export async function updateVideoSettings(db: DB, userId: string, id: string, input: CameraVideoSettings): Promise<Camera> {
  const row = await q.updateCamera(db, userId, id, { video_width: input.videoWidth, video_height: input.videoHeight, frame_rate: input.frameRate });
  if (!row) throw notFound("Camera");
  return toCamera(row);
}

/** Deletes the camera; its photos, stories and sessions stay (they keep the camera's name). */
export async function deleteCamera(db: DB, streams: LiveStreams, blobs: BlobStore, userId: string, id: string): Promise<void> {
  const row = await q.deleteCamera(db, userId, id);
  if (!row) throw notFound("Camera");
  await streams.forget(id);
  await discardBlobPrefix(blobs, blobKeys.cameraPrefix(userId, id));
}

export async function getCameraPicture(db: DB, blobs: BlobStore, userId: string, id: string, variant: "thumbnail" | "image") {
  const row = await q.findCamera(db, userId, id);
  const key = variant === "thumbnail" ? row?.thumbnail_key : row?.image_key;
  if (!row || !key || !row.thumbnail_etag) throw notFound("Picture");
  const bytes = blobReader(blobs, key, "Picture");
  return variant === "thumbnail"
    ? { bytes, etag: `${row.thumbnail_etag}-t`, contentType: "image/jpeg" }
    : { bytes, etag: row.thumbnail_etag, contentType: row.image_mime_type ?? "image/jpeg" };
}

function toPreset(row: Selectable<PresetsTable>): Preset {
  return { id: row.id, cameraId: row.camera_id, name: row.name, number: row.number, position: row.position, createdAt: row.created_at.toISOString() };
}

export async function listPresets(db: DB, userId: string, cameraId?: string): Promise<Preset[]> {
  return (await q.listPresets(db, userId, cameraId)).map(toPreset);
}

export async function createPreset(db: DB, userId: string, input: PresetCreateInput): Promise<Preset> {
  if (!(await q.findCamera(db, userId, input.cameraId))) throw new ProblemError(404, "Camera not found", { errors: { cameraId: ["no such camera"] } });
  try {
    const row = await q.insertPreset(db, {
      user_id: userId,
      camera_id: input.cameraId,
      name: input.name,
      number: input.number ?? null,
      position: input.position ?? null,
    });
    return toPreset(row);
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new ProblemError(409, `Preset ${input.number} is already saved for this camera`, { errors: { number: ["already used"] } });
    }
    throw error;
  }
}

export async function deletePreset(db: DB, userId: string, id: string): Promise<void> {
  if (!(await q.deletePreset(db, userId, id))) throw notFound("Preset");
}

/**
 * The user's camera that a photo, story or session refers to, or undefined when none is named;
 * 404 (naming the field) when the id is not one of the user's cameras.
 */
export async function referencedCamera(db: DB, userId: string, cameraId: string | null | undefined): Promise<{ id: string; name: string } | undefined> {
  if (!cameraId) return undefined;
  const camera = await q.findCamera(db, userId, cameraId);
  if (!camera) throw new ProblemError(404, "Camera not found", { errors: { cameraId: ["no such camera"] } });
  return { id: camera.id, name: camera.name };
}
