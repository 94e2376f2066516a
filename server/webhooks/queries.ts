// SQL for webhooks: the per-user settings and signing secret, and the delivery outbox (claims with leases,
// outcomes written in groups, the failure run that switches a webhook off). Always scoped to the owner.
import { sql, type Insertable, type Updateable } from "kysely";
import type { DB } from "#db/index";
import type { WebhookDeliveriesTable, WebhookSettingsTable } from "#db/schema";
import { WAKE_DELIVERIES_CALL } from "../jobs/wake";

export interface Claimed {
  id: string;
  user_id: string;
  attempts: number;
  /** The stored payload as JSON text: signed and sent as is. */
  body: string;
  webhook_url: string | null;
  webhook_enabled: boolean | null;
  disabled_reason: string | null;
  secret_ciphertext: string | null;
  failure_streak: number | null;
}

export interface Outcome {
  id: string;
  attempt: number;
  status: "delivered" | "cancelled";
  responseStatus: number | null;
  error: string | null;
}

/** Claims up to `limit` due rows with their endpoint, oldest due first, each for `lease` ms. */
export async function claimDue(db: DB, limit: number, lease: number): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`
    update webhook_deliveries d
    set claimed_until = now() + ${lease} * interval '1 millisecond'
    from (
      select due.id, s.webhook_url, s.webhook_enabled, s.disabled_reason, s.secret_ciphertext, s.failure_streak
      from webhook_deliveries due
      left join webhook_settings s on s.user_id = due.user_id
      where due.status in ('pending', 'retrying') and due.next_attempt_at <= now()
        and (due.claimed_until is null or due.claimed_until < now())
      order by due.next_attempt_at
      limit ${limit}
      for update of due skip locked
    ) c
    where d.id = c.id
    returning d.id, d.user_id, d.attempts, d.payload::text as body, c.webhook_url, c.webhook_enabled, c.disabled_reason, c.secret_ciphertext, c.failure_streak
  `.execute(db);
  return rows;
}

/** Delivered and cancelled rows, one UPDATE per group; a row retried meanwhile by a lapsed claim is left alone. */
export async function writeOutcomes(db: DB, outcomes: Outcome[]): Promise<void> {
  await sql`
    update webhook_deliveries d
    set status = v.status,
        attempts = case when v.status = 'delivered' then v.attempt else d.attempts end,
        response_status = case when v.status = 'delivered' then v.code else d.response_status end,
        last_error = v.error, next_attempt_at = null, claimed_until = null, updated_at = now()
    from unnest(${outcomes.map((o) => o.id)}::text[], ${outcomes.map((o) => o.attempt)}::int[], ${outcomes.map((o) => o.status)}::text[],
                ${outcomes.map((o) => o.responseStatus)}::int[], ${outcomes.map((o) => o.error)}::text[]) as v(id, attempt, status, code, error)
    where d.id = v.id and d.attempts = v.attempt - 1
  `.execute(db);
}

/** Hands claimed rows back at once (a stopping worker), instead of waiting for their lease to lapse. */
export async function releaseClaims(db: DB, ids: string[]): Promise<void> {
  if (ids.length) await db.updateTable("webhook_deliveries").set({ claimed_until: null }).where("id", "in", ids).execute();
}

/** A delivery went through: the endpoint's failure run is over. */
export async function endFailureRun(db: DB, userId: string): Promise<void> {
  await db.updateTable("webhook_settings").set({ failure_streak: 0, failing_since: null }).where("user_id", "=", userId).execute();
}

/** A failed attempt lengthens the endpoint's failure run; returns the run and whether the webhook is still on. */
export function growFailureRun(db: DB, userId: string) {
  return db
    .updateTable("webhook_settings")
    .set({ failure_streak: sql`failure_streak + 1`, failing_since: sql`coalesce(failing_since, now())` })
    .where("user_id", "=", userId)
    .returning(["failure_streak", "failing_since", "webhook_enabled"])
    .executeTakeFirstOrThrow();
}

export async function switchOff(db: DB, userId: string, reason: string, at: Date): Promise<void> {
  await db.updateTable("webhook_settings").set({ webhook_enabled: false, disabled_reason: reason, disabled_at: at }).where("user_id", "=", userId).execute();
}

/** A failed attempt's outcome; a row a lapsed claim already retried elsewhere (attempts moved on) keeps that one's. */
export async function writeFailedAttempt(db: DB, id: string, attempt: number, values: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ ...values, attempts: attempt })
    .where("id", "=", id)
    .where("attempts", "=", attempt - 1)
    .execute();
}

/** Where the user's webhook goes and what it sends; undefined when they never saved one. */
export const findWebhook = (db: DB, userId: string) =>
  db.selectFrom("webhook_settings").select(["webhook_url", "webhook_enabled", "webhook_event_type"]).where("user_id", "=", userId).executeTakeFirst();

/** One statement, so one atomic commit: the delivery row (due now) and the wake-up job that will send it. */
/** Queues deliveries (one or a batch) and one wake-up job, in one statement. */
export async function queueDeliveries(db: DB, userId: string, deliveries: readonly { id: string; eventType: string; payloadJson: string }[]): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((d) => sql`(${d.id}, ${userId}::uuid, ${d.eventType}, ${d.payloadJson}::text::jsonb, now())`);
  await sql`
    with queued as (
      insert into webhook_deliveries (id, user_id, event_type, payload, next_attempt_at)
      values ${sql.join(rows)}
      returning id
    )
    select (select count(*) from queued) as queued, (${sql.raw(WAKE_DELIVERIES_CALL)}).id as wake_job
  `.execute(db);
}

export const insertDelivery = async (db: DB, values: Insertable<WebhookDeliveriesTable>) => {
  await db.insertInto("webhook_deliveries").values(values).execute();
};

export const listDeliveries = (db: DB, userId: string, limit: number) =>
  db.selectFrom("webhook_deliveries").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();

export const findSettings = (db: DB, userId: string) => db.selectFrom("webhook_settings").selectAll().where("user_id", "=", userId).executeTakeFirst();

/** Saves the user's settings (the row is created on first save; the secret, if any, stays). */
export async function upsertSettings(db: DB, userId: string, values: Omit<Insertable<WebhookSettingsTable>, "user_id">): Promise<void> {
  await db
    .insertInto("webhook_settings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

export const findSecretCiphertext = async (db: DB, userId: string) =>
  (await db.selectFrom("webhook_settings").select("secret_ciphertext").where("user_id", "=", userId).executeTakeFirst())?.secret_ciphertext ?? null;

/**
 * Stores a sealed secret (creating the settings row, webhook off, when there is none). With `onlyIfNone`, a secret
 * already stored is kept: two first uses at once then agree on the first writer's.
 */
export async function storeSecret(db: DB, userId: string, secret_ciphertext: string, onlyIfNone = false): Promise<void> {
  await db
    .insertInto("webhook_settings")
    .values({ user_id: userId, webhook_url: null, webhook_enabled: false, webhook_event_type: "simple", updated_at: new Date(), secret_ciphertext })
    .onConflict((oc) => {
      const update = oc.column("user_id").doUpdateSet({ secret_ciphertext });
      return onlyIfNone ? update.where("webhook_settings.secret_ciphertext", "is", null) : update;
    })
    .execute();
}
