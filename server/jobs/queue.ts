// The durable job queue: graphile-worker on the app's own PostgreSQL, running inside the app process.
// Jobs are added with SQL (graphile_worker.add_job) through Kysely, so a job can be added in the same
// transaction as the row it works on; the worker is started and stopped with the HTTP server.
import { Logger, run, type Task } from "graphile-worker";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "#db/schema";
import { logger } from "../logger";

/** deliver_webhook is the pre-outbox per-delivery job; kept so jobs queued before an upgrade still run. */
export type TaskName =
  | "deliver_webhooks"
  | "deliver_webhook"
  | "send_alert"
  | "monitor_tick"
  | "monitor_sweep"
  | "camera_ptz"
  | "insights_rollup"
  | "insights_rebuild_days"
  | "insights_rebuild_site"
  | "insight_reports";

const workerLogger = new Logger((scope) => (level, message, meta) => {
  const log = logger.child({ component: "queue", ...scope });
  if (level === "error") log.error(meta ?? {}, message);
  else if (level === "warning") log.warn(meta ?? {}, message);
  else log.debug(meta ?? {}, message);
});

/**
 * Starts the worker (installing or migrating its schema first); resolves once it listens for jobs, with the function
 * that stops it: it waits for running jobs (each bounded by its own timeout) and releases the worker's connections.
 */
export async function startQueue(options: { connectionString: string; concurrency: number; tasks: Record<TaskName, Task>; crontab?: string }): Promise<() => Promise<void>> {
  const runner = await run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    maxPoolSize: options.concurrency + 2,
    // Jobs arrive through LISTEN/NOTIFY at once; polling only finds retries whose time has come.
    pollInterval: 500,
    noHandleSignals: true, // server/app.ts owns the signals; the composition root calls the stop
    logger: workerLogger,
    taskList: options.tasks,
    crontab: options.crontab ?? "",
    preset: {
      worker: {
        // Fetch jobs in batches and complete them in batches: under a burst of events the queue's own
        // queries, not the HTTP posts, are otherwise the bottleneck. A crash can leave batched jobs locked
        // (released after graphile-worker's 4-hour lock timeout); deliveries are idempotent per attempt.
        localQueue: { size: options.concurrency * 2 },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
  });
  // The runner's promise settles when it stops; a rejection nobody awaits would end the process with code 1.
  runner.promise.catch((error: unknown) => logger.error({ err: error }, "job queue stopped with an error"));
  return async () => {
    try {
      await runner.stop();
    } catch (error) {
      logger.error({ err: error }, "job queue did not stop cleanly"); // queued jobs stay in PostgreSQL either way
    }
  };
}

/**
 * Adds a job. `maxAttempts` only covers crashes of the task itself: deliveries schedule their own
 * retries (Retry-After and jitter need a computed time), so a normal failure ends the job successfully.
 */
export async function enqueue(db: Kysely<Database> | Transaction<Database>, task: TaskName, payload: Record<string, unknown>, runAt?: Date): Promise<void> {
  await sql`select graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::text::json, run_at => ${runAt ?? null}::timestamptz, max_attempts => 5)`.execute(db);
}

/**
 * Adds a job under a key: at most one waiting job per key ("replace" moves its run time, "preserve_run_at" keeps
 * an earlier one). A job already running keeps running and loses the key, so the new one waits behind nothing:
 * callers that must not overlap guard the work itself (monitors hold a lease on their row).
 */
export async function enqueueKeyed(
  db: Kysely<Database> | Transaction<Database>,
  task: TaskName,
  payload: Record<string, unknown>,
  options: { key: string; runAt: Date; mode?: "replace" | "preserve_run_at" },
): Promise<void> {
  await sql`select ${jobCall(task, payload, options)}`.execute(db);
}

/** The add_job call of a keyed job, as an SQL expression (for a statement that does more in the same round trip). */
export function jobCall(task: TaskName, payload: Record<string, unknown>, options: { key: string; runAt: Date; mode?: "replace" | "preserve_run_at" }) {
  return sql`graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::text::json, run_at => ${options.runAt}::timestamptz, max_attempts => 5, job_key => ${options.key}, job_key_mode => ${options.mode ?? "replace"})`;
}

/** Drops the waiting job under a key (a running one finishes). */
export async function removeKeyedJob(db: Kysely<Database> | Transaction<Database>, key: string): Promise<void> {
  await sql`select graphile_worker.remove_job(${key})`.execute(db);
}

/** Wake-ups at later times (retries' backoffs): a job each, so they neither delay nor are delayed by the keyed one. */
export async function wakeDeliveriesAt(db: Kysely<Database> | Transaction<Database>, times: readonly Date[]): Promise<void> {
  if (times.length === 0) return;
  await sql`select graphile_worker.add_job('deliver_webhooks', '{}'::json, run_at => at, max_attempts => 5) from unnest(${times.map((t) => t.toISOString())}::timestamptz[]) as at`.execute(
    db,
  );
}
