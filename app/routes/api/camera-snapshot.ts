// GET /api/cameras/:id/snapshot: a JPEG of the user's IP camera now, at its main stream's full resolution.
import { db } from "#db/index";
import { loadCameraSource } from "#server/cameras/source";
import { SnapshotError } from "#server/cameras/stream/index";
import { ProblemError } from "#server/errors";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

const snapshot = handle(api.cameras.snapshot, { resource: "Camera" }, async ({ user, params, services }) => {
  const source = await loadCameraSource(db(), user.id, params.id);
  try {
    const picture = await services.streams.snapshot(source);
    return new Response(new Uint8Array(picture.jpeg), {
      headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "X-Image-Width": String(picture.width), "X-Image-Height": String(picture.height) },
    });
  } catch (error) {
    if (error instanceof SnapshotError) throw new ProblemError(503, `The camera gave no picture: ${error.reason}`);
    throw error;
  }
});

export const loader = apiRoute({ GET: snapshot });
export const action = loader;
