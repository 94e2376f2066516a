// GET /api/people-count/snapshots/:id/image and /thumbnail → the counted frame (owner only, ETag, immutable).
import { db } from "#db/index";
import { getSnapshotImage } from "#server/counting/service";
import { apiRoute, imageResponse } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

const picture = (variant: "thumbnail" | "original") =>
  handle(variant === "thumbnail" ? api.peopleCount.snapshotThumbnail : api.peopleCount.snapshotImage, { resource: "Snapshot" }, async ({ request, user, params }) =>
    imageResponse(request, await getSnapshotImage(db(), user.id, params.id, variant)),
  );
const thumbnail = picture("thumbnail");
const original = picture("original");

export const loader = apiRoute({
  GET: [original, thumbnail],
});
export const action = loader;
