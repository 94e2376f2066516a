// The peopleCount operations' handlers (app/schemas/operations/people-count.ts), one per catalogue entry.
import { db } from "#db/index";
import {
  createSession,
  listSessions,
  deleteSession,
  getSession,
  finishSession,
  addLocalSnapshot,
  listSnapshots,
  correctSnapshot,
  getSnapshotImage,
} from "#server/counting/service";
import { handle } from "#server/http/operation";
import { FRAME_BODY_LIMIT, FRAME_BODY } from "#server/vision/frames";
import { imageResponse } from "#server/http/api";
import type { ResourceHandlers } from "#server/http/api";
import { countPeople } from "#server/counting/count";
import { aiFrame, imageFrame } from "#server/http/frame-input";
import { MAX_FRAME_BYTES } from "#app/schemas/vision";
import { api } from "../../schemas/operations/index";

const picture = (variant: "thumbnail" | "original") =>
  handle(variant === "thumbnail" ? api.peopleCount.snapshotThumbnail : api.peopleCount.snapshotImage, { resource: "Snapshot" }, async ({ request, user, params, services }) =>
    imageResponse(request, await getSnapshotImage(db(), services.blobs, user.id, params.id, variant)),
  );

export const peopleCount = {
  // GET /api/people-count/sessions → newest first; POST {cameraId, cameraName, title} → 201.
  sessions: handle(api.peopleCount.sessions, async ({ user }) => listSessions(db(), user.id)),
  createSession: handle(api.peopleCount.createSession, async ({ user, body }) => createSession(db(), user.id, body)),
  // /api/people-count/sessions/:id — GET with stats, DELETE with its snapshots.
  session: handle(api.peopleCount.session, { resource: "Session" }, async ({ user, params }) => getSession(db(), user.id, params.id)),
  removeSession: handle(api.peopleCount.removeSession, { resource: "Session" }, async ({ user, params, services }) => {
    await deleteSession(db(), services.blobs, user.id, params.id);
  }),
  // POST /api/people-count/sessions/:id/finish → the finished session.
  finishSession: handle(api.peopleCount.finishSession, { resource: "Session" }, async ({ user, params }) => finishSession(db(), user.id, params.id)),
  // /api/people-count/sessions/:id/snapshots — GET the session's snapshots in time order; POST {imageData, count}
  // → 201: a frame the studio counted on the device, stored in the active local session.
  snapshots: handle(api.peopleCount.snapshots, { resource: "Session" }, async ({ user, params }) => listSnapshots(db(), user.id, params.id)),
  addSnapshot: handle(api.peopleCount.addSnapshot, { resource: "Session", bodyLimit: FRAME_BODY_LIMIT }, async ({ user, params, body, services }) =>
    addLocalSnapshot(db(), services.blobs, user.id, params.id, { count: body.count, frame: imageFrame(body.imageData, MAX_FRAME_BYTES) }),
  ),
  // PATCH /api/people-count/snapshots/:id {correctedCount, correctedCountMin, correctedCountMax, sessionId} → the snapshot.
  correctSnapshot: handle(api.peopleCount.correctSnapshot, { resource: "Snapshot" }, async ({ user, params, body }) => correctSnapshot(db(), user.id, params.id, body)),
  // GET /api/people-count/snapshots/:id/image and /thumbnail → the counted frame (owner only, ETag, immutable).
  snapshotImage: picture("original"),
  snapshotThumbnail: picture("thumbnail"),
  // POST /api/people-count/count {imageData, sessionId, useRange} → {count, countMin, countMax, snapshot, session}:
  // counts people in the frame and stores it as a snapshot of the session.
  count: handle(api.peopleCount.count, FRAME_BODY, async ({ request, session, body, decoded, services }) =>
    countPeople(db(), services.vision, services.blobs, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
} satisfies ResourceHandlers<typeof api.peopleCount>;
