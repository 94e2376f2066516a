// GET /api/photos/:id/image and /api/photos/:id/thumbnail → the stored bytes (owner only, ETag, immutable).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, imageResponse } from "../../../server/http/api";
import { getPhotoImage } from "../../../server/photos/service";

export const loader = apiRoute<{ request: Request; params: { id?: string } }>({
  GET: async ({ request, params }) => {
    const user = await requireUser(request);
    const variant = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "original";
    return imageResponse(request, await getPhotoImage(db(), user.id, idParam(params.id, "Photo"), variant));
  },
});
export const action = loader;
