// The photos operations' handlers (app/schemas/operations/photos.ts), one per catalogue entry.
import { db } from "#db/index";
import { createPhoto, listPhotos, deletePhoto, getPhotoWithImage, getPhotoImage } from "#server/photos/service";
import { dataUrlOf, imageFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { imageResponse } from "#server/http/api";
import type { ResourceHandlers } from "#server/http/api";
import { verifyPhotoLink } from "#server/photos/links";
import { searchPhotos } from "#server/search/service";
import { createEdit, previewSegment } from "#server/photo-edits/service";
import { api } from "../../schemas/operations/index";

/** A 15 MB image as base64 plus the other fields. */
const PHOTO_BODY_LIMIT = 21 * 1024 * 1024;

// GET /api/photos/:id/image and /api/photos/:id/thumbnail → the stored bytes (owner only, ETag, immutable).
// The image also opens with a signed link (?owner&expires&signature) that webhooks and alerts carry.
// The original also opens with a signed link instead of the session.
const original = handle(
  api.photos.image,
  { resource: "Photo", owner: ({ params, query }) => (query.signature ? verifyPhotoLink(params.id!, query as Record<string, string>) : null) },
  async ({ request, userId, params, services }) => imageResponse(request, await getPhotoImage(db(), services.blobs, userId, params.id, "original")),
);
const thumbnail = handle(api.photos.thumbnail, { resource: "Photo" }, async ({ request, user, params, services }) =>
  imageResponse(request, await getPhotoImage(db(), services.blobs, user.id, params.id, "thumbnail")),
);

export const photos = {
  // GET /api/photos?limit=&cursor=&cameraId=&storyId=&autoCapture= → newest first (X-Next-Cursor and a Link
  // header name the next page); POST the studio's capture payload → 201 with the photo.
  list: handle(api.photos.list, async ({ request, user, query, headers }) => {
    const page = await listPhotos(db(), user.id, query);
    if (page.nextCursor) {
      const next = new URL(request.url);
      next.searchParams.set("cursor", page.nextCursor);
      headers.set("X-Next-Cursor", page.nextCursor);
      headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
    }
    return page.items;
  }),
  create: handle(api.photos.create, { bodyLimit: PHOTO_BODY_LIMIT }, async ({ user, body: { imageData, ...fields }, services }) =>
    createPhoto(db(), services.blobs, user.id, { ...fields, frame: imageFrame(imageData) }),
  ),
  // GET /api/photos/:id → the photo with imageData (a data URL, as the studio's gallery reads it); DELETE.
  get: handle(api.photos.get, { resource: "Photo" }, async ({ user, params, services }) => {
    const { photo, image } = await getPhotoWithImage(db(), services.blobs, user.id, params.id);
    return { ...photo, imageData: dataUrlOf(image.bytes, image.type) };
  }),
  remove: handle(api.photos.remove, { resource: "Photo" }, async ({ user, params, services }) => {
    await deletePhoto(db(), services.blobs, user.id, params.id);
  }),
  image: original,
  thumbnail,
  // GET /api/photos/search?q=&label=&cameraId=&captureMode=&autoCapture=&storyId=&from=&to=&minPeople=&limit=&cursor=
  search: handle(api.photos.search, async ({ user, query }) => searchPhotos(db(), user.id, query)),
  // POST /api/photos/:id/segment {object, points?} → {path, bbox}: Moondream's outline, checked, for the preview.
  segment: handle(api.photos.segment, { resource: "Photo" }, async ({ request, session, params, body, services }) =>
    previewSegment(db(), services.vision, services.blobs, session, params.id, body, request.signal),
  ),
  // POST /api/photos/:id/edits {kind, object, path, bbox, strength?, aspect?} → 201 the new photo.
  createEdit: handle(api.photos.createEdit, { resource: "Photo" }, async ({ user, params, body, services }) => createEdit(db(), services.blobs, user.id, params.id, body)),
} satisfies ResourceHandlers<typeof api.photos>;
