// Moondream calls per user, UTC hour and feature (vision_call_hours): one upsert per call made and kept, read
// back as the last 24 hours so the studio shows what each feature spends (and what local vision saves).
import { sql } from "kysely";
import { AI_FEATURES, type AiFeature, type VisionUsage } from "#app/schemas/vision";
import type { DB } from "#db/index";

const HOURS_SHOWN = 24;

/** Counts one call in its UTC hour (`at`: the call's time, the database's clock when left out). */
export async function recordCall(db: DB, userId: string, feature: AiFeature, at?: Date): Promise<void> {
  // date_trunc with the 'UTC' zone: the session's time zone must not move the hour (e.g. +05:30 zones).
  await sql`
    insert into vision_call_hours as h (user_id, hour, feature, calls)
    values (${userId}, date_trunc('hour', coalesce(${at ?? null}::timestamptz, now()), 'UTC'), ${feature}, 1)
    on conflict (user_id, hour, feature) do update set calls = h.calls + 1`.execute(db);
}

/** The user's calls in the last 24 hours (this hour included, `now`: the database's clock when left out). */
export async function usage(db: DB, userId: string, now?: Date): Promise<VisionUsage> {
  const { rows } = await sql<{ hour: Date; feature: AiFeature; calls: number; current_hour: Date }>`
    with current_hour as (select date_trunc('hour', coalesce(${now ?? null}::timestamptz, now()), 'UTC') as at)
    select h.hour, h.feature, h.calls, c.at as current_hour
    from current_hour c left join vision_call_hours h
      on h.user_id = ${userId} and h.hour > c.at - ${HOURS_SHOWN} * interval '1 hour' and h.hour <= c.at
    order by h.hour, h.feature`.execute(db);
  const currentHour = rows[0]!.current_hour.toISOString();
  const hours = rows.filter((r) => r.hour !== null).map((r) => ({ hour: r.hour.toISOString(), feature: r.feature, calls: r.calls }));
  const totals = AI_FEATURES.map((feature) => ({ feature, calls: hours.filter((h) => h.feature === feature).reduce((sum, h) => sum + h.calls, 0) })).filter((t) => t.calls > 0);
  return { currentHour, hours, totals };
}
