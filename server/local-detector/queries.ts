// SQL for the deployment's detector models (admins' uploads, not any user's rows) and which one is active.
import { sql, type Insertable } from "kysely";
import type { DB } from "#db/index";
import type { DetectorModelsTable } from "#db/schema";

const columns = [
  "detector_models.id",
  "detector_models.name",
  "detector_models.format",
  "detector_models.pixel_scaling",
  "detector_models.labels",
  "detector_models.input_width",
  "detector_models.input_height",
  "detector_models.byte_size",
  "detector_models.sha256",
  "detector_models.blob_key",
  "detector_models.active",
  "detector_models.created_at",
  "users.username",
] as const;

const withUploader = (db: DB) => db.selectFrom("detector_models").leftJoin("users", "users.id", "detector_models.uploaded_by").select(columns);

export type DetectorModelRow = Awaited<ReturnType<typeof listModels>>[number];

export const listModels = (db: DB) => withUploader(db).orderBy("detector_models.created_at", "desc").orderBy("detector_models.id", "desc").execute();

export const findModel = (db: DB, id: string) => withUploader(db).where("detector_models.id", "=", id).executeTakeFirst();

export const findActiveModel = (db: DB) => withUploader(db).where("detector_models.active", "=", true).executeTakeFirst();

export const insertModel = (db: DB, values: Insertable<DetectorModelsTable>) => db.insertInto("detector_models").values(values).returning("id").executeTakeFirstOrThrow();

export async function modelExists(db: DB, id: string): Promise<boolean> {
  return (await db.selectFrom("detector_models").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/**
 * Makes `id` the one active model (null: none, the built-in detector), on a transaction. The table lock serialises
 * activations and deletions: two at once end with the later one's choice, never a unique-index error (without it,
 * each would clear the old row and then both set theirs). Reads are not blocked.
 */
export async function setActiveModel(trx: DB, id: string | null): Promise<boolean> {
  await sql`lock table detector_models in share row exclusive mode`.execute(trx);
  if (id !== null && !(await modelExists(trx, id))) return false;
  await trx.updateTable("detector_models").set({ active: false }).where("active", "=", true).execute();
  if (id !== null) await trx.updateTable("detector_models").set({ active: true }).where("id", "=", id).execute();
  return true;
}

export const deleteModel = (db: DB, id: string) => db.deleteFrom("detector_models").where("id", "=", id).returning(["blob_key", "active"]).executeTakeFirst();
