// GET /api/photos/:id/image and /api/photos/:id/thumbnail → the stored bytes (owner only, ETag, immutable).
// The image also opens with a signed link (?owner&expires&signature) that webhooks and alerts carry.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, imageResponse, queryParams } from "../../../server/http/api";
import { verifyPhotoLink } from "../../../server/photos/links";
import { getPhotoImage } from "../../../server/photos/service";

export const loader = apiRoute<{ request: Request; params: { id?: string } }>({
  GET: async ({ request, params }) => {
    const id = idParam(params.id, "Photo");
    const query = queryParams(request);
    const variant = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "original";
    const linkOwner = query.signature ? verifyPhotoLink(id, query) : null;
    const userId = linkOwner ?? (await requireUser(request)).id;
    return imageResponse(request, await getPhotoImage(db(), userId, id, variant));
  },
});
export const action = loader;
