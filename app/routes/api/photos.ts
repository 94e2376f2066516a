// GET /api/photos?limit=&cursor=&cameraId=&storyId=&autoCapture= → newest first (X-Next-Cursor and a Link
// header name the next page); POST the studio's capture payload → 201 with the photo.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, parseInput, queryParams, readJson } from "../../../server/http/api";
import { createPhoto, listPhotos } from "../../../server/photos/service";
import { photoCreateSchema, photoListQuerySchema } from "../../schemas/photos";

/** A 15 MB image as base64 plus the other fields. */
const PHOTO_BODY_LIMIT = 21 * 1024 * 1024;

export const loader = apiRoute({
  GET: async ({ request }) => {
    const user = await requireUser(request);
    const query = parseInput(photoListQuerySchema, queryParams(request));
    const page = await listPhotos(db(), user.id, query);
    const headers = new Headers();
    if (page.nextCursor) {
      const next = new URL(request.url);
      next.searchParams.set("cursor", page.nextCursor);
      headers.set("X-Next-Cursor", page.nextCursor);
      headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
    }
    return json(page.items, { headers });
  },
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const input = await readJson(request, photoCreateSchema, PHOTO_BODY_LIMIT);
    return json(await createPhoto(db(), user.id, input), { status: 201 });
  },
});
export const action = loader;
