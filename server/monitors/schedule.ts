// A monitor's place in the job queue: one keyed job per monitor ("monitor:<id>"), so a monitor has at most one
// tick waiting; the lease on its row (./queries.ts claimTick) makes sure at most one runs.
import type { DB } from "#db/index";
import { enqueueKeyed, removeKeyedJob } from "../jobs/queue";

export const tickKey = (monitorId: string) => `monitor:${monitorId}`;

/** The monitor's next tick at `at`, replacing any waiting one. */
export async function scheduleTick(db: DB, monitorId: string, at: Date): Promise<void> {
  await enqueueKeyed(db, "monitor_tick", { monitorId }, { key: tickKey(monitorId), runAt: at });
}

/** A tick at `at` unless one is already waiting (whose time stands): for looking again when a lease lapses. */
export async function scheduleTickIfNone(db: DB, monitorId: string, at: Date): Promise<void> {
  await enqueueKeyed(db, "monitor_tick", { monitorId }, { key: tickKey(monitorId), runAt: at, mode: "preserve_run_at" });
}

export async function cancelTicks(db: DB, monitorId: string): Promise<void> {
  await removeKeyedJob(db, tickKey(monitorId));
}
