// Moondream calls per user, UTC hour and feature (vision_call_hours): one upsert per call, taken back when the
// provider fails it, read back as the last 24 hours so the studio shows what each feature spends (and what local
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
  const written = recordCall(db, userId, feature).catch((error: unknown) => {
    logger.warn({ err: error, feature }, "Could not count a Moondream call");
    return null;
  });
  return {
    kept: async () => void (await written),
    dropped: async () => {
      const hour = await written;
      if (!hour) return;
      await forgetCall(db, userId, feature, hour).catch((error: unknown) => logger.warn({ err: error, feature }, "Could not take back the count of a failed Moondream call"));
    },
  };
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
