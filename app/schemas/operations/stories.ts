// The stories operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { photoSchema } from "../photos";
import { captionCreateSchema, captionSchema, storyCreateSchema, storySchema, storyUpdateSchema } from "../stories";
import { defineOperation, noContent } from "./define";

export const stories = {
  list: defineOperation({ method: "get", path: "/api/stories", summary: "Stories newest first", tag: "Stories", access: "user", success: { status: 200, schema: z.array(storySchema) } }),
  create: defineOperation({ method: "post", path: "/api/stories", summary: "Start a story", tag: "Stories", access: "user", body: storyCreateSchema, success: { status: 201, schema: storySchema }, errors: [400, 404] }),
  get: defineOperation({ method: "get", path: "/api/stories/{id}", summary: "One story", tag: "Stories", access: "user", success: { status: 200, schema: storySchema }, errors: [404] }),
  rename: defineOperation({ method: "patch", path: "/api/stories/{id}", summary: "Rename a story", tag: "Stories", access: "user", body: storyUpdateSchema, success: { status: 200, schema: storySchema }, errors: [400, 404] }),
  remove: defineOperation({ method: "delete", path: "/api/stories/{id}", summary: "Delete a story (its photos stay)", tag: "Stories", access: "user", success: noContent, errors: [404] }),
  finish: defineOperation({ method: "post", path: "/api/stories/{id}/finish", summary: "Finish a story", tag: "Stories", access: "user", success: { status: 200, schema: storySchema }, errors: [404] }),
  captions: defineOperation({ method: "get", path: "/api/stories/{id}/captions", summary: "The story's captions in order", tag: "Stories", access: "user", success: { status: 200, schema: z.array(captionSchema) }, errors: [404] }),
  addCaption: defineOperation({ method: "post", path: "/api/stories/{id}/captions", summary: "Add a caption", tag: "Stories", access: "user", body: captionCreateSchema, success: { status: 201, schema: captionSchema }, errors: [400, 404, 409] }),
  photos: defineOperation({ method: "get", path: "/api/stories/{id}/photos", summary: "The story's photos, oldest first", tag: "Stories", access: "user", success: { status: 200, schema: z.array(photoSchema) }, errors: [404] }),
};
