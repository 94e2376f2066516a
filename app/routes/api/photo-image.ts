// GET /api/photos/:id/image and /api/photos/:id/thumbnail → the stored bytes (owner only, ETag, immutable).
// The image also opens with a signed link (?owner&expires&signature) that webhooks and alerts carry.
import { db } from "#db/index";
import { apiRoute, imageResponse } from "#server/http/api";
import { verifyPhotoLink } from "#server/photos/links";
import { getPhotoImage } from "#server/photos/service";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

// The original also opens with a signed link instead of the session.
const original = handle(
  api.photos.image,
  { resource: "Photo", owner: ({ params, query }) => (query.signature ? verifyPhotoLink(params.id!, query as Record<string, string>) : null) },
  async ({ request, userId, params }) => imageResponse(request, await getPhotoImage(db(), userId, params.id, "original")),
);
const thumbnail = handle(api.photos.thumbnail, { resource: "Photo" }, async ({ request, user, params }) =>
  imageResponse(request, await getPhotoImage(db(), user.id, params.id, "thumbnail")),
);

export const loader = apiRoute({
  GET: [original, thumbnail],
});
export const action = loader;
