// The photos operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { photoCreateSchema, photoListQuerySchema, photoSchema, photoWithImageSchema } from "../photos";
import { photoSearchQuerySchema, photoSearchResultSchema } from "../search";
import { defineOperation, image, noContent, signedLinkQuerySchema } from "./define";
import { photoEditRequestSchema, segmentPreviewRequestSchema, segmentPreviewSchema } from "../photo-edits";

export const photos = {
  list: defineOperation({
    method: "get",
    path: "/api/photos",
    summary: "Photos newest first; the next page's cursor is in X-Next-Cursor and Link",
    tag: "Photos",
    access: "user",
    query: photoListQuerySchema,
    success: { status: 200, schema: z.array(photoSchema) },
    errors: [400],
  }),
  create: defineOperation({
    method: "post",
    path: "/api/photos",
    summary: "Save a captured photo (JPEG, PNG or WebP data URL ≤ 15 MB, ≤ 40 MP)",
    tag: "Photos",
    access: "user",
    body: photoCreateSchema,
    success: { status: 201, schema: photoSchema },
    errors: [400, 404, 409, 413, 422, 507],
  }),
  get: defineOperation({
    method: "get",
    path: "/api/photos/{id}",
    summary: "One photo with its image as a data URL",
    tag: "Photos",
    access: "user",
    success: { status: 200, schema: photoWithImageSchema },
    errors: [404],
  }),
  remove: defineOperation({
    method: "delete",
    path: "/api/photos/{id}",
    summary: "Delete a photo and its image",
    tag: "Photos",
    access: "user",
    success: noContent,
    errors: [404],
  }),
  image: defineOperation({
    method: "get",
    path: "/api/photos/{id}/image",
    summary: "The original image (owner, or anyone with a signed link from a webhook or alert)",
    tag: "Photos",
    access: "user",
    query: signedLinkQuerySchema,
    success: image("Image"),
    errors: [404],
  }),
  thumbnail: defineOperation({
    method: "get",
    path: "/api/photos/{id}/thumbnail",
    summary: "The 320 px JPEG thumbnail",
    tag: "Photos",
    access: "user",
    success: image("Thumbnail"),
    errors: [404],
  }),
  search: defineOperation({
    method: "get",
    path: "/api/photos/search",
    summary:
      "Search the library: words (phrases, -exclusions, OR; typos read as the nearest indexed spelling) over labels, captions and names, ranked, with highlighted words, facet counts and a stable cursor",
    tag: "Photos",
    access: "user",
    query: photoSearchQuerySchema,
    success: { status: 200, schema: photoSearchResultSchema },
    errors: [400],
  }),
  segment: defineOperation({
    method: "post",
    path: "/api/photos/{id}/segment",
    summary:
      "Outline an object on the photo with Moondream (one AI call, counted as segmentation): an SVG path normalised to its bbox, to preview before saving an edit. 501 when the Moondream server cannot segment",
    tag: "Photos",
    access: "user",
    body: segmentPreviewRequestSchema,
    success: { status: 200, schema: segmentPreviewSchema },
    errors: [400, 402, 404, 413, 422, 429, 501, 502, 504],
  }),
  createEdit: defineOperation({
    method: "post",
    path: "/api/photos/{id}/edits",
    summary: "Save a cut-out (PNG with transparency), a background blur or a smart crop (JPEG) of the photo from an outline, as a new photo linked to it",
    tag: "Photos",
    access: "user",
    body: photoEditRequestSchema,
    success: { status: 201, schema: photoSchema },
    errors: [400, 404, 413, 422, 507],
  }),
};
