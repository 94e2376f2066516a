// The cameras operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { cameraCreateSchema, cameraSchema, cameraUpdateSchema, cameraVideoSettingsSchema } from "../cameras";
import { defineOperation, image, noContent } from "./define";

export const cameras = {
  list: defineOperation({ method: "get", path: "/api/cameras", summary: "The user's cameras", tag: "Cameras", access: "user", success: { status: 200, schema: z.array(cameraSchema) } }),
  create: defineOperation({ method: "post", path: "/api/cameras", summary: "Add a camera (webcam by deviceId, or a static photo by thumbnail)", tag: "Cameras", access: "user", body: cameraCreateSchema, success: { status: 201, schema: cameraSchema }, errors: [400, 413, 422] }),
  get: defineOperation({ method: "get", path: "/api/cameras/{id}", summary: "One camera", tag: "Cameras", access: "user", success: { status: 200, schema: cameraSchema }, errors: [404] }),
  update: defineOperation({ method: "put", path: "/api/cameras/{id}", summary: "Rename the camera or replace its thumbnail", tag: "Cameras", access: "user", body: cameraUpdateSchema, success: { status: 200, schema: cameraSchema }, errors: [400, 404, 413, 422] }),
  saveVideo: defineOperation({ method: "patch", path: "/api/cameras/{id}", summary: "Save video settings", tag: "Cameras", access: "user", body: cameraVideoSettingsSchema, success: { status: 200, schema: cameraSchema }, errors: [400, 404] }),
  remove: defineOperation({ method: "delete", path: "/api/cameras/{id}", summary: "Delete the camera (its photos, stories and sessions stay)", tag: "Cameras", access: "user", success: noContent, errors: [404] }),
  thumbnail: defineOperation({ method: "get", path: "/api/cameras/{id}/thumbnail", summary: "The camera's 320 px thumbnail JPEG", tag: "Cameras", access: "user", success: image("Thumbnail"), errors: [404] }),
  image: defineOperation({ method: "get", path: "/api/cameras/{id}/image", summary: "The full picture sent as the camera's thumbnail (a static photo's source)", tag: "Cameras", access: "user", success: image("Picture"), errors: [404] }),
};
