// GET /api/cameras/:id/thumbnail (320 px JPEG) and /api/cameras/:id/image (the full picture of a static-photo
// camera): owner only, cached for a year (the URL carries the picture's version).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { getCameraPicture } from "../../../server/cameras/service";
import { apiRoute, idParam, imageResponse } from "../../../server/http/api";

export const loader = apiRoute<{ request: Request; params: { id?: string } }>({
  GET: async ({ request, params }) => {
    const user = await requireUser(request);
    const variant = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "image";
    return imageResponse(request, await getCameraPicture(db(), user.id, idParam(params.id, "Camera"), variant));
  },
});
export const action = loader;
