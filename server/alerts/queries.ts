// SQL for alert rules and alert contacts, always scoped to the owner. A rule's cooldown is claimed with one
// conditional UPDATE, so two app servers (or two photos at once) can't both fire it.
import { sql, type Insertable, type Updateable } from "kysely";
import type { AlertChannel } from "#app/schemas/automation";
import type { DB } from "#db/index";
import type { AlertContactsTable, AlertRulesTable } from "#db/schema";

export type VisionRuleKind = "line_crossed" | "zone_entered" | "zone_exited" | "zone_loitering";

export const listRules = (db: DB, userId: string) => db.selectFrom("alert_rules").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();

export async function countRules(db: DB, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom("alert_rules")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export const insertRule = (db: DB, userId: string, values: Omit<Insertable<AlertRulesTable>, "user_id">) =>
  db
    .insertInto("alert_rules")
    .values({ user_id: userId, ...values })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateRule = (db: DB, userId: string, id: string, values: Updateable<AlertRulesTable>) =>
  db.updateTable("alert_rules").set(values).where("user_id", "=", userId).where("id", "=", id).returningAll().executeTakeFirst();

export const deleteRule = (db: DB, userId: string, id: string) =>
  db.deleteFrom("alert_rules").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

/** The names (and cameras) of the user's lines and zones among `ids`, for rules that watch one. */
export async function regionNames(db: DB, userId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const of = (table: "vision_lines" | "vision_zones") =>
    db
      .selectFrom(table)
      .innerJoin("cameras", "cameras.id", `${table}.camera_id`)
      .select([`${table}.id as id`, `${table}.name as name`, "cameras.id as camera_id", "cameras.name as camera_name"])
      .where(`${table}.user_id`, "=", userId)
      .where(`${table}.id`, "in", ids);
  return of("vision_lines").unionAll(of("vision_zones")).execute();
}

/** Marks the rules whose cooldown has passed as fired now and returns them (a rule still cooling down is left out). */
export function claimRules(db: DB, userId: string, ruleIds: string[]) {
  return db
    .updateTable("alert_rules")
    .set({ last_fired_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("id", "in", ruleIds)
    .where((eb) => eb.or([eb("last_fired_at", "is", null), eb("last_fired_at", "<=", sql<Date>`now() - make_interval(secs => cooldown_seconds)`)]))
    .returning(["id", "email", "sms"])
    .execute();
}

/**
 * The user's enabled rules that match: detection rules for this object (compared without case), people-count rules
 * whose limit the count exceeds, or local-vision rules of this kind for this class (or any) on this line or zone (or any).
 */
export function matchingRuleIds(db: DB, userId: string, match: { object: string } | { count: number } | { kind: VisionRuleKind; label: string; targetId: string }) {
  const rules = db.selectFrom("alert_rules").select("id").where("user_id", "=", userId).where("enabled", "=", true);
  if ("kind" in match)
    return rules
      .where("kind", "=", match.kind)
      .where((eb) => eb.or([eb("object", "is", null), eb("object", "=", ""), sql<boolean>`lower(object) = ${match.label.toLowerCase()}`]))
      .where((eb) => eb.or([eb("target_id", "is", null), eb("target_id", "=", match.targetId)]))
      .execute();
  return (
    "object" in match
      ? rules.where("kind", "=", "detection").where(sql<boolean>`lower(object) = ${match.object}`)
      : rules.where("kind", "=", "people_count").where("threshold", "<", match.count)
  ).execute();
}

export const listContacts = (db: DB, userId: string) => db.selectFrom("alert_contacts").selectAll().where("user_id", "=", userId).orderBy("channel").execute();

export const findContact = (db: DB, userId: string, channel: AlertChannel) =>
  db.selectFrom("alert_contacts").selectAll().where("user_id", "=", userId).where("channel", "=", channel).executeTakeFirst();

/** Creates the user's contact on the channel, or replaces its address and code. */
export async function upsertContact(db: DB, userId: string, channel: AlertChannel, values: Omit<Insertable<AlertContactsTable>, "user_id" | "channel">): Promise<void> {
  await db
    .insertInto("alert_contacts")
    .values({ user_id: userId, channel, ...values })
    .onConflict((oc) => oc.columns(["user_id", "channel"]).doUpdateSet(values))
    .execute();
}

export async function updateContact(db: DB, userId: string, channel: AlertChannel, values: Updateable<AlertContactsTable>): Promise<void> {
  await db.updateTable("alert_contacts").set(values).where("user_id", "=", userId).where("channel", "=", channel).execute();
}

export async function deleteContact(db: DB, userId: string, channel: AlertChannel): Promise<void> {
  await db.deleteFrom("alert_contacts").where("user_id", "=", userId).where("channel", "=", channel).execute();
}
