// The saved searches operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { savedSearchCreateSchema, savedSearchSchema } from "../search";
import { defineOperation, noContent } from "./define";

export const savedSearches = {
  list: defineOperation({
    method: "get",
    path: "/api/saved-searches",
    summary: "The user's saved searches, oldest first",
    tag: "Saved searches",
    access: "user",
    success: { status: 200, schema: z.array(savedSearchSchema) },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/saved-searches",
    summary: "Save a search; with a notification, each newly saved photo that matches it fires the search.matched webhook and/or an e-mail or SMS alert, once per photo",
    tag: "Saved searches",
    access: "user",
    body: savedSearchCreateSchema,
    success: { status: 201, schema: savedSearchSchema },
    errors: [400, 409],
  }),
  remove: defineOperation({
    method: "delete",
    path: "/api/saved-searches/{id}",
    summary: "Delete a saved search",
    tag: "Saved searches",
    access: "user",
    success: noContent,
    errors: [404],
  }),
};
