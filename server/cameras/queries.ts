// SQL for cameras and presets, always scoped to the owner.
import { sql, type Insertable, type Updateable } from "kysely";
import type { DB } from "#db/index";
import { retryOnDeadlock } from "#db/deadlocks";
import type { CamerasTable, PresetsTable } from "#db/schema";
import { streamedAnywhere, streamedElsewhere } from "./stream/presence";

export const findCamera = (db: DB, userId: string, id: string) => db.selectFrom("cameras").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

/**
 * Rows as the API shows them: `streamed` says whether a live app process pulls the camera now (see toCamera). Only an
 * IP camera shown 'online' asks (the lock table is read once per such row; a webcam list never reads it).
 */
const shown = (db: DB) =>
  db
    .selectFrom("cameras")
    .selectAll()
    .select(sql<boolean>`case when cameras.source = 'ip' and cameras.status = 'online' then ${streamedAnywhere(sql.ref("cameras.id"))} else true end`.as("streamed"));

export const findCameraShown = (db: DB, userId: string, id: string) => shown(db).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

export const listCameras = (db: DB, userId: string) => shown(db).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();

export const insertCamera = (db: DB, values: Insertable<CamerasTable>) => db.insertInto("cameras").values(values).returningAll().executeTakeFirstOrThrow();

export const updateCamera = (db: DB, userId: string, id: string, values: Updateable<CamerasTable>) =>
  db.updateTable("cameras").set(values).where("user_id", "=", userId).where("id", "=", id).returningAll().executeTakeFirst();

/** The live stream's state (online/connecting/offline) and why it is offline; by id alone, as the stream supervisor knows the camera. */
/** `unlessStreamedElsewhere`: an idle stop's "offline" says nothing about the camera while another process pulls it. */
export const setCameraStatus = (db: DB, id: string, status: string, reason: string | null, unlessStreamedElsewhere = false) => {
  let query = db.updateTable("cameras").set({ status, status_reason: reason }).where("id", "=", id).where("source", "=", "ip");
  if (unlessStreamedElsewhere) query = query.where(sql<boolean>`not ${streamedElsewhere(sql.ref("cameras.id"))}`);
  return query.execute();
};

/**
 * At start-up no stream of this process runs yet: an IP camera left 'online'/'connecting' (a crash wrote no
 * offline) is shown offline with no reason, as after an idle stop, until a viewer or monitor pulls it again —
 * unless another live app process pulls it (server/cameras/stream/presence.ts).
 */
export const resetStaleCameraStatuses = (db: DB) =>
  db
    .updateTable("cameras")
    .set({ status: "offline", status_reason: null })
    .where("source", "=", "ip")
    .where("status", "in", ["online", "connecting"])
    .where(sql<boolean>`not ${streamedElsewhere(sql.ref("cameras.id"))}`)
    .executeTakeFirst();

/** Deletes the camera (its rows go by cascade), again if a background writer's deadlock aborted it. */
export const deleteCamera = (db: DB, userId: string, id: string) =>
  retryOnDeadlock(() => db.deleteFrom("cameras").where("user_id", "=", userId).where("id", "=", id).returning(["id"]).executeTakeFirst());

export const listPresets = (db: DB, userId: string, cameraId?: string) => {
  let query = db.selectFrom("presets").selectAll().where("user_id", "=", userId);
  if (cameraId) query = query.where("camera_id", "=", cameraId);
  return query.orderBy("created_at").orderBy("id").execute();
};

export const insertPreset = (db: DB, values: Insertable<PresetsTable>) => db.insertInto("presets").values(values).returningAll().executeTakeFirstOrThrow();

export const deletePreset = (db: DB, userId: string, id: string) => db.deleteFrom("presets").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
