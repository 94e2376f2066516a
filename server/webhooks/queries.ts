// SQL for webhooks: the per-user settings and signing secret, and the delivery outbox (rows claimed by row locks
// held for a batch, its outcomes written in one statement, the failure run that switches a webhook off). Always
// scoped to the owner.
import { sql, type Insertable } from "kysely";
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

/** What a batch writes for one of its rows: delivered, cancelled (webhook off), or failed (retrying or final). */
export interface Outcome {
  id: string;
  attempt: number;
  status: "delivered" | "cancelled" | "retrying" | "failed";
  responseStatus: number | null;
  error: string | null;
  /** When a retrying row is due again; null otherwise. */
  nextAttemptAt: Date | null;
}

/**
 * Locks up to `limit` due rows for the calling transaction, oldest due first, with their endpoint: rows other
 * transactions hold are skipped, and so are the users in `skipUsers` (whose rows this process already has queued).
 * The lock, not a write, is the claim: it lasts until the transaction ends, and ends with it if the process dies.
 * Rows under a lease (written by versions before the locks) are left to it.
 */
export async function lockDue(trx: DB, limit: number, skipUsers: readonly string[]): Promise<Claimed[]> {
  // Right after a burst the table's statistics still say "few due rows", and the planner then reads and sorts every
  // due row (payloads and all) to pick the oldest: 3.5 ms a claim at 10,000 due rows, so a drain grew quadratic.
  // Walking webhook_deliveries_due in order and stopping at `limit` costs 0.2 ms whatever is due.
  await sql`set local enable_bitmapscan = off`.execute(trx);
  const { rows } = await sql<Claimed>`
    select d.id, d.user_id, d.attempts, d.payload::text as body, s.webhook_url, s.webhook_enabled, s.disabled_reason, s.secret_ciphertext, s.failure_streak
    from (
      select id, user_id, attempts, payload, next_attempt_at
      from webhook_deliveries
      where status in ('pending', 'retrying') and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
        and user_id <> all(${skipUsers}::uuid[])
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    ) d
    left join webhook_settings s on s.user_id = d.user_id
    order by d.next_attempt_at
  `.execute(trx);
  return rows;
}

/**
 * A batch's outcomes in one UPDATE (its rows are locked by the same transaction). They go as one JSON parameter:
 * JSON.stringify is native, where six array parameters cost the driver an escape per element. It is sent as text
 * (`::text::jsonb`): given a jsonb parameter, the driver would encode the string once more, as a JSON string.
 */
export async function writeOutcomes(trx: DB, outcomes: readonly Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    update webhook_deliveries d
    set status = v.status,
        attempts = case when v.status = 'cancelled' then d.attempts else v.attempt end,
        response_status = case when v.status = 'cancelled' then d.response_status else v."responseStatus" end,
        last_error = v.error, next_attempt_at = v."nextAttemptAt", claimed_until = null, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::text::jsonb)
      as v(id text, attempt int, status text, "responseStatus" int, error text, "nextAttemptAt" timestamptz)
    where d.id = v.id and d.attempts = v.attempt - 1
  `.execute(trx);
}

/**
 * Runs `work` in a transaction that waits at most a second for any row lock. The dispatcher holds its batch's delivery
 * rows while it touches the endpoint row, and whoever holds that one may be waiting for a delivery row (deleting an
 * account deletes both): PostgreSQL can't see that cycle, so the wait is bounded here. `isLockTimeout` tells it apart.
 */
export async function withShortLockWait<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = '1s'`.execute(trx);
    return work(trx);
  });
}

export const isLockTimeout = (error: unknown): boolean => (error as { code?: string } | null)?.code === "55P03";

/** Whether any row is due now: after a drain, such rows are held by another process (or just arrived). */
export async function anyDue(db: DB): Promise<boolean> {
  const { rows } = await sql<{ due: boolean }>`
    select exists (select 1 from webhook_deliveries where status in ('pending', 'retrying') and next_attempt_at <= now()) as due
  `.execute(db);
  return rows[0]?.due ?? false;
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
