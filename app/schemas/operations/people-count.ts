// The peopleCount operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { sessionCreateSchema, sessionSchema, snapshotCorrectionSchema, snapshotSchema } from "../people-count";
import { countRequestSchema, countResponseSchema } from "../vision";
import { defineOperation, image, noContent, aiErrors } from "./define";

export const peopleCount = {
  sessions: defineOperation({ method: "get", path: "/api/people-count/sessions", summary: "Counting sessions newest first", tag: "People counting", access: "user", success: { status: 200, schema: z.array(sessionSchema) } }),
  createSession: defineOperation({ method: "post", path: "/api/people-count/sessions", summary: "Start a counting session", tag: "People counting", access: "user", body: sessionCreateSchema, success: { status: 201, schema: sessionSchema }, errors: [400, 404] }),
  session: defineOperation({ method: "get", path: "/api/people-count/sessions/{id}", summary: "One session with its stats", tag: "People counting", access: "user", success: { status: 200, schema: sessionSchema }, errors: [404] }),
  removeSession: defineOperation({ method: "delete", path: "/api/people-count/sessions/{id}", summary: "Delete a session and its snapshots", tag: "People counting", access: "user", success: noContent, errors: [404] }),
  finishSession: defineOperation({ method: "post", path: "/api/people-count/sessions/{id}/finish", summary: "Finish a session", tag: "People counting", access: "user", success: { status: 200, schema: sessionSchema }, errors: [404] }),
  snapshots: defineOperation({ method: "get", path: "/api/people-count/sessions/{id}/snapshots", summary: "The session's snapshots in time order", tag: "People counting", access: "user", success: { status: 200, schema: z.array(snapshotSchema) }, errors: [404] }),
  correctSnapshot: defineOperation({ method: "patch", path: "/api/people-count/snapshots/{id}", summary: "Correct a snapshot's count (a number, or a range with its rounded midpoint)", tag: "People counting", access: "user", body: snapshotCorrectionSchema, success: { status: 200, schema: snapshotSchema }, errors: [400, 404] }),
  snapshotImage: defineOperation({ method: "get", path: "/api/people-count/snapshots/{id}/image", summary: "The counted frame", tag: "People counting", access: "user", success: image("Image"), errors: [404] }),
  snapshotThumbnail: defineOperation({ method: "get", path: "/api/people-count/snapshots/{id}/thumbnail", summary: "The counted frame's thumbnail", tag: "People counting", access: "user", success: image("Thumbnail"), errors: [404] }),
  count: defineOperation({ method: "post", path: "/api/people-count/count", summary: "Count people (by pointing, or a low–high estimate) and store the snapshot in the session", tag: "People counting", access: "user", body: countRequestSchema, success: { status: 200, schema: countResponseSchema }, errors: [...aiErrors, 404, 409] }),
};
