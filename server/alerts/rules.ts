// Alert rules: "when {object} is detected" or "when counting exceeds N people" → e-mail and/or SMS, at most
// once per cooldown. The cooldown is claimed with one conditional UPDATE, so two app servers (or two
// photos at once) can't both fire the same rule.
import { sql, type Selectable } from "kysely";
import type { AlertRule, AlertRuleInput } from "../../app/schemas/automation";
import type { AlertJob, AlertMessage } from "../../app/schemas/events";
import type { CountSession } from "../../app/schemas/people-count";
import type { Photo } from "../../app/schemas/photos";
import type { DB } from "../../db/index";
import type { AlertRulesTable } from "../../db/schema";
import { enqueue } from "../jobs/queue";
import { notFound, ProblemError } from "../errors";
import { linkOrigin, signedPhotoUrl } from "../photos/links";
import { alertMessage } from "./messages";

export const MAX_RULES = 50;

function toRule(row: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: row.id,
    kind: row.kind,
    object: row.object,
    threshold: row.threshold,
    email: row.email,
    sms: row.sms,
    cooldownMinutes: row.cooldown_seconds / 60,
    enabled: row.enabled,
    lastFiredAt: row.last_fired_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

function toValues(input: AlertRuleInput) {
  return {
    kind: input.kind,
    object: input.kind === "detection" ? input.object!.trim() : null,
    threshold: input.kind === "people_count" ? input.threshold! : null,
    email: input.email,
    sms: input.sms,
    cooldown_seconds: Math.round(input.cooldownMinutes * 60),
    enabled: input.enabled,
  };
}

export async function listRules(db: DB, userId: string): Promise<AlertRule[]> {
  const rows = await db.selectFrom("alert_rules").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toRule);
}

export async function createRule(db: DB, userId: string, input: AlertRuleInput): Promise<AlertRule> {
  const { count } = await db.selectFrom("alert_rules").select((eb) => eb.fn.countAll<string>().as("count")).where("user_id", "=", userId).executeTakeFirstOrThrow();
  if (Number(count) >= MAX_RULES) throw new ProblemError(409, `You can have at most ${MAX_RULES} alert rules`);
  const row = await db.insertInto("alert_rules").values({ user_id: userId, ...toValues(input) }).returningAll().executeTakeFirstOrThrow();
  return toRule(row);
}

export async function updateRule(db: DB, userId: string, id: string, input: AlertRuleInput): Promise<AlertRule> {
  const row = await db.updateTable("alert_rules").set(toValues(input)).where("user_id", "=", userId).where("id", "=", id).returningAll().executeTakeFirst();
  if (!row) throw notFound("Alert rule");
  return toRule(row);
}

export async function deleteRule(db: DB, userId: string, id: string): Promise<void> {
  const row = await db.deleteFrom("alert_rules").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
  if (!row) throw notFound("Alert rule");
}

/** Claims the rules whose cooldown has passed and queues one job per chosen channel. */
async function fire(db: DB, userId: string, ruleIds: string[], message: AlertMessage): Promise<number> {
  if (ruleIds.length === 0) return 0;
  const claimed = await db
    .updateTable("alert_rules")
    .set({ last_fired_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("id", "in", ruleIds)
    .where((eb) => eb.or([eb("last_fired_at", "is", null), eb("last_fired_at", "<=", sql<Date>`now() - make_interval(secs => cooldown_seconds)`)]))
    .returning(["id", "email", "sms"])
    .execute();
  for (const rule of claimed) {
    if (rule.email) await enqueue(db, "send_alert", { userId, ruleId: rule.id, channel: "email", subject: message.subject, text: message.text } satisfies AlertJob);
    if (rule.sms) await enqueue(db, "send_alert", { userId, ruleId: rule.id, channel: "sms", subject: message.subject, text: message.sms } satisfies AlertJob);
  }
  return claimed.length;
}

export async function fireDetectionRules(db: DB, userId: string, photo: Photo): Promise<number> {
  const object = photo.detectionQuery?.trim().toLowerCase();
  if (!object) return 0;
  const rules = await db
    .selectFrom("alert_rules")
    .select("id")
    .where("user_id", "=", userId)
    .where("enabled", "=", true)
    .where("kind", "=", "detection")
    .where(sql<boolean>`lower(object) = ${object}`)
    .execute();
  const message = alertMessage("detection", {
    object: photo.detectionQuery ?? object,
    cameraName: photo.cameraName,
    at: photo.createdAt,
    boxCount: photo.detectionBoxes?.length ?? 0,
    photoUrl: signedPhotoUrl(userId, photo.id),
  });
  return fire(db, userId, rules.map((r) => r.id), message);
}

export async function fireCountRules(db: DB, userId: string, reading: { count: number; session: CountSession }): Promise<number> {
  const rules = await db
    .selectFrom("alert_rules")
    .select("id")
    .where("user_id", "=", userId)
    .where("enabled", "=", true)
    .where("kind", "=", "people_count")
    .where("threshold", "<", reading.count)
    .execute();
  const message = alertMessage("people_count", {
    count: reading.count,
    cameraName: reading.session.cameraName,
    sessionTitle: reading.session.title,
    at: new Date().toISOString(),
    url: `${linkOrigin()}/studio`,
  });
  return fire(db, userId, rules.map((r) => r.id), message);
}
