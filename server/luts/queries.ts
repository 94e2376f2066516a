// SQL for a user's LUTs (uploads and built-in presets), always scoped to the owner.
import type { DB } from "#db/index";

const summaryColumns = ["id", "name", "size", "builtin", "created_at"] as const;

export async function countBuiltins(db: DB, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom("luts")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("user_id", "=", userId)
    .where("builtin", "=", true)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Inserts the presets the user lacks (race-free via the partial unique index on built-in names). */
export async function insertBuiltins(db: DB, userId: string, presets: readonly { name: string; size: number; lutData: string }[]): Promise<void> {
  await db
    .insertInto("luts")
    .values(presets.map((lut) => ({ user_id: userId, name: lut.name, size: lut.size, lut_data: lut.lutData, builtin: true })))
    .onConflict((oc) => oc.columns(["user_id", "name"]).where("builtin", "=", true).doNothing())
    .execute();
}

export const listLuts = (db: DB, userId: string) =>
  db.selectFrom("luts").select(summaryColumns).where("user_id", "=", userId).orderBy("builtin", "desc").orderBy("created_at").orderBy("id").execute();

export const findLut = (db: DB, userId: string, id: string) =>
  db
    .selectFrom("luts")
    .select([...summaryColumns, "lut_data"])
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();

/** Whether the LUT is a built-in preset (undefined when it is not the user's); never the .cube text. */
export const findLutOrigin = (db: DB, userId: string, id: string) =>
  db.selectFrom("luts").select(["builtin"]).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

export const insertLut = (db: DB, values: { user_id: string; name: string; size: number; lut_data: string }) =>
  db.insertInto("luts").values(values).returning(summaryColumns).executeTakeFirstOrThrow();

export async function deleteLut(db: DB, userId: string, id: string): Promise<void> {
  await db.deleteFrom("luts").where("user_id", "=", userId).where("id", "=", id).execute();
}
