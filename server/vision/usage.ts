// Moondream calls per user, UTC hour and feature (vision_call_hours): counted as each call goes out (concurrent
// calls in one upsert), taken back when the provider fails it, read back as the last 24 hours so the studio shows what each feature spends (and what local
// vision saves).
import { sql } from "kysely";
import { AI_FEATURES, type AiFeature, type VisionUsage } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { logger } from "../logger";

const HOURS_SHOWN = 24;

/** Counts one call in its UTC hour (`at`: the call's time, the database's clock when left out); answers the hour. */
export async function recordCall(db: DB, userId: string, feature: AiFeature, at?: Date): Promise<Date> {
  // date_trunc with the 'UTC' zone: the session's time zone must not move the hour (e.g. +05:30 zones).
  const { rows } = await sql<{ hour: Date }>`
    insert into vision_call_hours as h (user_id, hour, feature, calls)
    values (${userId}, date_trunc('hour', coalesce(${at ?? null}::timestamptz, now()), 'UTC'), ${feature}, 1)
    on conflict (user_id, hour, feature) do update set calls = h.calls + 1
    returning h.hour`.execute(db);
  return rows[0]!.hour;
}

/**
 * Takes back a call recordCall counted in `hour` (the provider failed it). A row left at 0 calls is not shown
 * (usage() skips it): deleting it here could race with a concurrent count of the same hour.
 */
export async function forgetCall(db: DB, userId: string, feature: AiFeature, hour: Date): Promise<void> {
  await sql`
    update vision_call_hours set calls = calls - 1
    where user_id = ${userId} and hour = ${hour} and feature = ${feature} and calls > 0`.execute(db);
}

/** One call's count, written while the provider works on it. Neither method rejects: a count that cannot be written is logged. */
export interface PendingCount {
  /** The call was answered: resolves once the count is written, so a usage read after the answer sees it. */
  kept(): Promise<void>;
  /** The provider failed the call: the count is taken back once written. */
  dropped(): Promise<void>;
}

/**
 * Starts counting a call as it goes to the provider, rather than after its answer: the write overlaps the provider's
 * time (tens of milliseconds at least) instead of adding a database round trip, and a commit, to every answer.
 */
export function countCall(db: DB, userId: string, feature: AiFeature): PendingCount {
  const written = queueCount(db, userId, feature);
  return {
    kept: async () => void (await written),
    dropped: async () => {
      const hour = await written;
      if (!hour) return;
      await forgetCall(db, userId, feature, hour).catch((error: unknown) => logger.warn({ err: error, feature }, "Could not take back the count of a failed Moondream call"));
    },
  };
}

interface QueuedCount {
  userId: string;
  feature: AiFeature;
  calls: number;
  /** Each counted call's waiter: the hour its call went into, or null when the write failed. */
  settle: Array<(hour: Date | null) => void>;
}

/** Per database pool: whether a write of counts is in flight, and the counts waiting for the next. */
interface CountQueue {
  writing: boolean;
  waiting: Map<string, QueuedCount>;
}

const queues = new WeakMap<DB, CountQueue>();

/**
 * Group commit: with no write in flight a count is written at once (no added wait); counts arriving while one is in
 * flight are summed per user and feature and written together by the next statement. Under load that is one
 * statement and one commit for many calls instead of one each (an upsert costs PostgreSQL ~0.25 ms of CPU here,
 * bench/vision.ts); the more the database lags, the more each statement carries.
 */
function queueCount(db: DB, userId: string, feature: AiFeature): Promise<Date | null> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { writing: false, waiting: new Map() }));
  const key = `${userId} ${feature}`;
  const hour = new Promise<Date | null>((resolve) => {
    const queued = queue.waiting.get(key);
    if (queued) {
      queued.calls++;
      queued.settle.push(resolve);
    } else {
      queue.waiting.set(key, { userId, feature, calls: 1, settle: [resolve] });
    }
  });
  if (!queue.writing) void writeQueued(db, queue);
  return hour;
}

async function writeQueued(db: DB, queue: CountQueue): Promise<void> {
  queue.writing = true;
  try {
    while (queue.waiting.size) {
      const counts = [...queue.waiting.values()];
      queue.waiting = new Map();
      let hours: Array<Date | null>;
      try {
        hours = await recordCounts(db, counts);
      } catch (error) {
        logger.warn({ err: error, calls: counts.reduce((sum, count) => sum + count.calls, 0) }, "Could not count Moondream calls");
        hours = counts.map(() => null);
      }
      counts.forEach((count, index) => count.settle.forEach((settle) => settle(hours[index]!)));
    }
  } finally {
    queue.writing = false;
  }
}

/** One upsert for several users' and features' counts, in this UTC hour; answers each one's hour, in order. */
async function recordCounts(db: DB, counts: readonly QueuedCount[]): Promise<Date[]> {
  const { rows } = await sql<{ user_id: string; feature: AiFeature; hour: Date }>`
    insert into vision_call_hours as h (user_id, hour, feature, calls)
    select c.user_id, date_trunc('hour', now(), 'UTC'), c.feature, c.calls
    from unnest(${counts.map((c) => c.userId)}::uuid[], ${counts.map((c) => c.feature)}::text[], ${counts.map((c) => c.calls)}::int[]) as c(user_id, feature, calls)
    on conflict (user_id, hour, feature) do update set calls = h.calls + excluded.calls
    returning h.user_id, h.feature, h.hour`.execute(db);
  const hours = new Map(rows.map((row) => [`${row.user_id} ${row.feature}`, row.hour]));
  return counts.map((count) => hours.get(`${count.userId} ${count.feature}`)!);
}

/** The user's calls in the last 24 hours (this hour included, `now`: the database's clock when left out). */
export async function usage(db: DB, userId: string, now?: Date): Promise<VisionUsage> {
  const { rows } = await sql<{ hour: Date; feature: AiFeature; calls: number; current_hour: Date }>`
    with current_hour as (select date_trunc('hour', coalesce(${now ?? null}::timestamptz, now()), 'UTC') as at)
    select h.hour, h.feature, h.calls, c.at as current_hour
    from current_hour c left join vision_call_hours h
      on h.user_id = ${userId} and h.hour > c.at - ${HOURS_SHOWN} * interval '1 hour' and h.hour <= c.at and h.calls > 0
    order by h.hour, h.feature`.execute(db);
  const currentHour = rows[0]!.current_hour.toISOString();
  const hours = rows.filter((r) => r.hour !== null).map((r) => ({ hour: r.hour.toISOString(), feature: r.feature, calls: r.calls }));
  const totals = AI_FEATURES.map((feature) => ({ feature, calls: hours.filter((h) => h.feature === feature).reduce((sum, h) => sum + h.calls, 0) })).filter((t) => t.calls > 0);
  return { currentHour, hours, totals };
}
