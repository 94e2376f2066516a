// GET /api/people-count/snapshots/:id/image and /thumbnail → the counted frame (owner only, ETag, immutable).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { getSnapshotImage } from "../../../server/counting/service";
import { apiRoute, idParam, imageResponse } from "../../../server/http/api";

export const loader = apiRoute<{ request: Request; params: { id?: string } }>({
  GET: async ({ request, params }) => {
    const user = await requireUser(request);
    const variant = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "original";
    return imageResponse(request, await getSnapshotImage(db(), user.id, idParam(params.id, "Snapshot"), variant));
  },
});
export const action = loader;
