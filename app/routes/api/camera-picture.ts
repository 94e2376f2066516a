// GET /api/cameras/:id/thumbnail (320 px JPEG) and /api/cameras/:id/image (the full picture of a static-photo
// camera): owner only, cached for a year (the URL carries the picture's version).
import { db } from "#db/index";
import { getCameraPicture } from "#server/cameras/service";
import { apiRoute, imageResponse } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

const picture = (variant: "thumbnail" | "image") =>
  handle(variant === "thumbnail" ? api.cameras.thumbnail : api.cameras.image, { resource: "Camera" }, async ({ request, user, params }) =>
    imageResponse(request, await getCameraPicture(db(), user.id, params.id, variant)),
  );
const thumbnail = picture("thumbnail");
const image = picture("image");

export const loader = apiRoute({
  GET: [image, thumbnail],
});
export const action = loader;
