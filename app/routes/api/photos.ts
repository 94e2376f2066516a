// GET /api/photos?limit=&cursor=&cameraId=&storyId=&autoCapture= → newest first (X-Next-Cursor and a Link
// header name the next page); POST the studio's capture payload → 201 with the photo.
import { db } from "#db/index";
import { createPhoto, listPhotos } from "#server/photos/service";
import { apiRoute } from "#server/http/api";
import { imageFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

/** A 15 MB image as base64 plus the other fields. */
const PHOTO_BODY_LIMIT = 21 * 1024 * 1024;

export const loader = apiRoute({
  GET: handle(api.photos.list, async ({ request, user, query, headers }) => {
    const page = await listPhotos(db(), user.id, query);
    if (page.nextCursor) {
      const next = new URL(request.url);
      next.searchParams.set("cursor", page.nextCursor);
      headers.set("X-Next-Cursor", page.nextCursor);
      headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
    }
    return page.items;
  }),
  POST: handle(api.photos.create, { bodyLimit: PHOTO_BODY_LIMIT }, async ({ user, body: { imageData, ...fields } }) =>
    createPhoto(db(), user.id, { ...fields, frame: imageFrame(imageData) }),
  ),
});
export const action = loader;
