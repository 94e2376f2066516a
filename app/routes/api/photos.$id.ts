// GET /api/photos/:id → the photo with imageData (a data URL, as the studio's gallery reads it); DELETE.
import { db } from "#db/index";
import { deletePhoto, getPhotoWithImage } from "#server/photos/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.photos.get, { resource: "Photo" }, async ({ user, params }) => getPhotoWithImage(db(), user.id, params.id)),
  DELETE: handle(api.photos.remove, { resource: "Photo" }, async ({ user, params }) => {
    await deletePhoto(db(), user.id, params.id);
  }),
});
export const action = loader;
