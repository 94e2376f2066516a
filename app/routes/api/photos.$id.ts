// GET /api/photos/:id → the photo with imageData (a data URL, as the studio's gallery reads it); DELETE.
import { db } from "#db/index";
import { deletePhoto, getPhotoWithImage } from "#server/photos/service";
import { apiRoute } from "#server/http/api";
import { dataUrlOf } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.photos.get, { resource: "Photo" }, async ({ user, params }) => {
    const { photo, image } = await getPhotoWithImage(db(), user.id, params.id);
    return { ...photo, imageData: dataUrlOf(image.bytes, image.type) };
  }),
  DELETE: handle(api.photos.remove, { resource: "Photo" }, async ({ user, params }) => {
    await deletePhoto(db(), user.id, params.id);
  }),
});
export const action = loader;
