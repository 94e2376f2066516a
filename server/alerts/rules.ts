// Alert rules: "when {object} is detected" or "when counting exceeds N people" → e-mail and/or SMS, at most
// once per cooldown. The cooldown is claimed with one conditional UPDATE, so two app servers (or two
// photos at once) can't both fire the same rule.
import type { Selectable } from "kysely";
import type { AlertRule, AlertRuleInput } from "#app/schemas/automation";
import type { AlertJob, AlertMessage } from "#app/schemas/events";
import type { CountSession } from "#app/schemas/people-count";
import type { Photo } from "#app/schemas/photos";
import type { DB } from "#db/index";
import type { AlertRulesTable } from "#db/schema";
import { enqueue } from "../jobs/queue";
import { createWithinCap } from "../caps";
import { notFound, ProblemError } from "../errors";
import { linkOrigin, signedPhotoUrl } from "../photos/links";
import { findRegion } from "../local-vision/queries";
import type { DomainEvents, VisionEventType } from "../events";
import { alertMessage } from "./messages";
import * as q from "./queries";
import type { VisionRuleKind } from "./queries";

export const MAX_RULES = 50;

type Target = AlertRule["target"];

function toRule(row: Selectable<AlertRulesTable>, targets: ReadonlyMap<string, Target>): AlertRule {
  return {
    id: row.id,
    kind: row.kind,
    object: row.object,
    threshold: row.threshold,
    targetId: row.target_id,
    target: (row.target_id && targets.get(row.target_id)) || null,
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
    // A detection rule's object is required; a local-vision rule's is its class filter (none: any class).
    object: input.kind === "people_count" ? null : input.object?.trim() || null,
    threshold: input.kind === "people_count" ? input.threshold! : null,
    target_id: input.targetId?.toLowerCase() ?? null,
    email: input.email,
    sms: input.sms,
    cooldown_seconds: Math.round(input.cooldownMinutes * 60),
    enabled: input.enabled,
  };
}

/** The rules as the studio lists them: each watched line or zone with its name and camera (a deleted one: null). */
async function toRules(db: DB, userId: string, rows: Selectable<AlertRulesTable>[]): Promise<AlertRule[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.target_id ? [row.target_id] : [])))];
  const found = await q.regionNames(db, userId, ids);
  const targets = new Map(found.map((r) => [r.id, { name: r.name, cameraId: r.camera_id, cameraName: r.camera_name }]));
  return rows.map((row) => toRule(row, targets));
}

export async function listRules(db: DB, userId: string): Promise<AlertRule[]> {
  return toRules(db, userId, await q.listRules(db, userId));
}

/** A rule's line or zone must be the user's, and a line for line_crossed, a zone for the zone kinds. */
async function checkTarget(db: DB, userId: string, input: AlertRuleInput): Promise<void> {
  if (!input.targetId) return;
  const table = input.kind === "line_crossed" ? "vision_lines" : "vision_zones";
  if (!(await findRegion(db, table, userId, input.targetId.toLowerCase())))
    throw new ProblemError(400, `No such ${input.kind === "line_crossed" ? "line" : "zone"}`, {
      errors: { targetId: [`Choose one of your ${input.kind === "line_crossed" ? "lines" : "zones"}`] },
    });
}

export async function createRule(db: DB, userId: string, input: AlertRuleInput): Promise<AlertRule> {
  await checkTarget(db, userId, input);
  const cap = { resource: "alert_rules", owner: userId, max: MAX_RULES, refusal: `You can have at most ${MAX_RULES} alert rules`, count: (trx: DB) => q.countRules(trx, userId) };
  const row = await createWithinCap(db, cap, (trx) => q.insertRule(trx, userId, toValues(input)));
  return (await toRules(db, userId, [row]))[0]!;
}

export async function updateRule(db: DB, userId: string, id: string, input: AlertRuleInput): Promise<AlertRule> {
  await checkTarget(db, userId, input);
  const row = await q.updateRule(db, userId, id, toValues(input));
  if (!row) throw notFound("Alert rule");
  return (await toRules(db, userId, [row]))[0]!;
}

export async function deleteRule(db: DB, userId: string, id: string): Promise<void> {
  const row = await q.deleteRule(db, userId, id);
  if (!row) throw notFound("Alert rule");
}

/** Claims the rules whose cooldown has passed and queues one job per chosen channel. */
async function fire(db: DB, userId: string, ruleIds: string[], message: AlertMessage): Promise<number> {
  if (ruleIds.length === 0) return 0;
  const claimed = await q.claimRules(db, userId, ruleIds);
  for (const rule of claimed) {
    if (rule.email) await enqueue(db, "send_alert", { userId, ruleId: rule.id, channel: "email", subject: message.subject, text: message.text } satisfies AlertJob);
    if (rule.sms) await enqueue(db, "send_alert", { userId, ruleId: rule.id, channel: "sms", subject: message.subject, text: message.sms } satisfies AlertJob);
  }
  return claimed.length;
}

export async function fireDetectionRules(db: DB, userId: string, photo: Photo): Promise<number> {
  const object = photo.detectionQuery?.trim().toLowerCase();
  if (!object) return 0;
  const rules = await q.matchingRuleIds(db, userId, { object });
  const message = alertMessage("detection", {
    object: photo.detectionQuery ?? object,
    cameraName: photo.cameraName,
    at: photo.createdAt,
    boxCount: photo.detectionBoxes?.length ?? 0,
    photoUrl: signedPhotoUrl(userId, photo.id),
  });
  return fire(
    db,
    userId,
    rules.map((r) => r.id),
    message,
  );
}

/** The alert rule kind that watches each local-vision event type. */
const ruleKinds: Record<VisionEventType, VisionRuleKind> = {
  "line.crossed": "line_crossed",
  "zone.entered": "zone_entered",
  "zone.exited": "zone_exited",
  "zone.loitering": "zone_loitering",
};

/** A local-vision event's rules: those of its kind for its class (or any class) on its line or zone (or any). */
export async function fireVisionRules(db: DB, { userId, camera, targetName, event }: DomainEvents[VisionEventType]): Promise<number> {
  const kind = ruleKinds[event.type];
  const rules = await q.matchingRuleIds(db, userId, { kind, label: event.label, targetId: "lineId" in event ? event.lineId : event.zoneId });
  if (rules.length === 0) return 0;
  return fire(
    db,
    userId,
    rules.map((r) => r.id),
    alertMessage(kind, {
      name: targetName,
      label: event.label,
      cameraName: camera.name,
      at: new Date(event.at).toISOString(),
      direction: event.type === "line.crossed" ? event.direction : undefined,
      dwellSeconds: "dwellSeconds" in event ? event.dwellSeconds : undefined,
      description: event.description,
      photoUrl: event.photoId ? signedPhotoUrl(userId, event.photoId) : undefined,
      url: `${linkOrigin()}/studio`,
    }),
  );
}

export async function fireCountRules(db: DB, userId: string, reading: { count: number; session: CountSession }): Promise<number> {
  const rules = await q.matchingRuleIds(db, userId, { count: reading.count });
  const message = alertMessage("people_count", {
    count: reading.count,
    cameraName: reading.session.cameraName,
    sessionTitle: reading.session.title,
    at: new Date().toISOString(),
    url: `${linkOrigin()}/studio`,
  });
  return fire(
    db,
    userId,
    rules.map((r) => r.id),
    message,
  );
}
