// Photo edits from a Moondream outline (issue 32). The preview asks Moondream (one call, through the vision
// service's key, quota and pace) for the outline of an object on one of the user's photos and checks it; saving
// draws that outline as an alpha mask at the photo's resolution (./render.ts) and keeps the cut-out, blurred or
// cropped picture as a new photo linked to its source, through the photo intake and blob store. A bad outline,
// from Moondream or sent back by the studio, is refused before anything is written.
import sharp from "sharp";
import type { PhotoEditRequest, SegmentPreview, SegmentPreviewRequest } from "#app/schemas/photo-edits";
import type { Photo } from "#app/schemas/photos";
import type { Box } from "#app/schemas/vision";
import type { DB } from "#db/index";
import type { Session } from "../accounts/sessions";
import { notFound, ProblemError } from "../errors";
import { uploadedFrame, type Frame } from "../images/frame";
import { createPhoto } from "../photos/service";
import * as photoQueries from "../photos/queries";
import type { BlobStore } from "../storage/blob-store";
import { segment, type Vision } from "../vision/service";
import { normalisePath, PathError, PATH_TOLERANCE } from "./path";
import { blurBackground, crop, cutout, decodeUpright, renderMask } from "./render";

/** The photo's stored picture, read only when the photo is the user's. */
async function ownPicture(db: DB, blobs: BlobStore, userId: string, photoId: string) {
  const row = await photoQueries.findPhoto(db, userId, photoId);
  if (!row) throw notFound("Photo");
  const bytes = await blobs.get(row.image_key);
  if (!bytes) throw notFound("Photo image");
  return { row, bytes };
}

/**
 * The picture as Moondream gets it: upright (the outline's coordinates are then the same as the decoded photo's),
 * and a JPEG or PNG (a WebP or a rotated JPEG is re-encoded once).
 */
async function modelFrame(bytes: Buffer, mimeType: string): Promise<Frame> {
  const { orientation, format } = await sharp(bytes).metadata();
  if ((format === "jpeg" || format === "png") && !(orientation && orientation > 1)) return uploadedFrame(bytes, mimeType);
  return uploadedFrame(await sharp(bytes).rotate().jpeg({ quality: 92 }).toBuffer(), "image/jpeg");
}

/** The outline of `object` on the photo (one Moondream call), checked: a bad answer is a 502 saying what was wrong. */
export async function previewSegment(
  db: DB,
  vision: Vision,
  blobs: BlobStore,
  session: Session,
  photoId: string,
  input: SegmentPreviewRequest,
  signal?: AbortSignal,
): Promise<SegmentPreview> {
  const { row, bytes } = await ownPicture(db, blobs, session.user.id, photoId);
  const frame = await modelFrame(bytes, row.mime_type);
  const spatialRefs = input.points?.map(({ x, y }): [number, number] => [x, y]);
  const answer = await segment(db, vision, { session, input: { object: input.object, spatialRefs, priority: "interactive" }, frame }, signal);
  if (!answer.path.trim()) throw new ProblemError(502, `Moondream found no outline of "${input.object}" in this photo; describe it differently, or click on it and try again`);
  try {
    return { path: normalisePath(answer.path), bbox: checkBox(answer.bbox) };
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    throw new ProblemError(502, `Moondream's outline of "${input.object}" could not be used (${error.message}); try again`);
  }
}

/** Saves the edit as a new photo (201), linked to its source, which stays as it was. */
export async function createEdit(db: DB, blobs: BlobStore, userId: string, photoId: string, input: PhotoEditRequest): Promise<Photo> {
  let path: string;
  try {
    path = normalisePath(input.path);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    throw new ProblemError(400, `The outline cannot be used: ${error.message}`, { errors: { path: [error.message] } });
  }
  const { row, bytes } = await ownPicture(db, blobs, userId, photoId);
  const photo = await decodeUpright(bytes);
  let picture: Buffer;
  if (input.kind === "crop") {
    picture = await crop(photo, input.bbox, input.aspect!);
  } else {
    const mask = await renderMask(path, input.bbox, photo.width, photo.height);
    picture = input.kind === "cutout" ? await cutout(photo, mask) : await blurBackground(photo, mask, input.strength);
  }
  return createPhoto(db, blobs, userId, {
    cameraId: row.camera_id,
    captureMode: "single",
    autoCapture: false,
    // What was outlined names the new photo, and the source's description stays true of it: search finds the edit.
    detectionQuery: input.object,
    description: row.description,
    frame: uploadedFrame(picture, input.kind === "cutout" ? "image/png" : "image/jpeg"),
    edit: { sourcePhotoId: row.id, kind: input.kind },
  });
}

/** The model's box, clamped into the photo (within the same tolerance as the path); one with no area is refused. */
function checkBox(box: Box): Box {
  const values = [box.x_min, box.y_min, box.x_max, box.y_max];
  if (!values.every((v) => Number.isFinite(v) && v >= -PATH_TOLERANCE && v <= 1 + PATH_TOLERANCE)) throw new PathError("its box is outside the photo");
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const clamped = { x_min: clamp(box.x_min), y_min: clamp(box.y_min), x_max: clamp(box.x_max), y_max: clamp(box.y_max) };
  if (clamped.x_max <= clamped.x_min || clamped.y_max <= clamped.y_min) throw new PathError("its box is empty");
  return clamped;
}
