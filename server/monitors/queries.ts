// SQL for monitors, always scoped to the owner where a person acts; the runner's statements work by id and
// guard every write with the state it expects, so a pause or delete during a tick always wins.
import { sql, type Insertable, type Selectable, type Updateable } from "kysely";
import type { DB } from "#db/index";
import type { MonitorsTable } from "#db/schema";
import { processGone, type ProcessIdentity } from "../cameras/stream/presence";

export type MonitorRow = Selectable<MonitorsTable> & { camera_name: string };

const withCamera = (db: DB) => db.selectFrom("monitors").innerJoin("cameras", "cameras.id", "monitors.camera_id").selectAll("monitors").select("cameras.name as camera_name");

export const listMonitors = (db: DB, userId: string): Promise<MonitorRow[]> =>
  withCamera(db).where("monitors.user_id", "=", userId).orderBy("monitors.created_at").orderBy("monitors.id").execute();

export const findMonitor = (db: DB, userId: string, id: string): Promise<MonitorRow | undefined> =>
  withCamera(db).where("monitors.user_id", "=", userId).where("monitors.id", "=", id).executeTakeFirst();

export const findMonitorById = (db: DB, id: string): Promise<MonitorRow | undefined> => withCamera(db).where("monitors.id", "=", id).executeTakeFirst();

export const countMonitors = async (db: DB, userId: string): Promise<number> =>
  Number(
    (
      await db
        .selectFrom("monitors")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const insertMonitor = (db: DB, values: Insertable<MonitorsTable>) => db.insertInto("monitors").values(values).returning("id").executeTakeFirstOrThrow();

export const updateMonitor = (db: DB, userId: string, id: string, values: Updateable<MonitorsTable>) =>
  db.updateTable("monitors").set(values).where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

export const deleteMonitor = (db: DB, userId: string, id: string) =>
  db.deleteFrom("monitors").where("user_id", "=", userId).where("id", "=", id).returning(["id", "kind", "recording_id"]).executeTakeFirst();

export const monitorsOfCamera = (db: DB, userId: string, cameraId: string) =>
  db.selectFrom("monitors").select(["id", "kind", "recording_id"]).where("user_id", "=", userId).where("camera_id", "=", cameraId).execute();

/** SQL: the process that holds (or last held) the monitor's lease is gone: its lease and its locked tick job are dead. */
const holderGone = (table: "monitors" | "m") => processGone(sql.ref(`${table}.lease_pid`), sql.ref(`${table}.lease_backend_start`));

/** SQL: a process identity's backend start, exactly (µs). */
const backendStart = (identity: ProcessIdentity) => sql<Date>`timestamptz 'epoch' + ${identity.since}::bigint * interval '1 microsecond'`;

/**
 * Takes the monitor's tick lease, as `holder` (null: no presence connection, the lease's time alone counts), when it
 * is due (running, or backing off in error, and its booked time has come: a stale or duplicate job finds it not due)
 * and no live tick holds it. Only the caller that gets a row back may tick; the lease lapses when its time is up,
 * or at once when its holder's process is gone.
 */
export const claimTick = (db: DB, id: string, leaseMs: number, holder: ProcessIdentity | null): Promise<MonitorRow | undefined> =>
  db
    .with("claimed", (qb) =>
      qb
        .updateTable("monitors")
        .set({
          lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`,
          lease_pid: holder?.pid ?? null,
          lease_backend_start: holder ? backendStart(holder) : null,
        })
        .where("id", "=", id)
        .where("state", "in", ["running", "error"])
        .where("kind", "<>", "local_capture") // run by its camera's pipeline, never by a tick
        .where((eb) => eb.or([eb("next_run_at", "is", null), eb("next_run_at", "<=", sql<Date>`now()`)]))
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", sql<Date>`now()`), holderGone("monitors")]))
        .returningAll(),
    )
    .selectFrom("claimed")
    .innerJoin("cameras", "cameras.id", "claimed.camera_id")
    .selectAll("claimed")
    .select("cameras.name as camera_name")
    .executeTakeFirst() as Promise<MonitorRow | undefined>;

/** Why a claim found nothing to do: the monitor's state, its booked time, and until when a live tick holds it. */
export const tickState = (db: DB, id: string) =>
  db
    .selectFrom("monitors")
    .select(["state", "next_run_at", sql<Date | null>`case when ${holderGone("monitors")} then null else lease_until end`.as("lease_until")])
    .where("id", "=", id)
    .executeTakeFirst();

/** The process's presence connection was replaced: the leases it holds follow it, so no other process takes them. */
export const moveLeases = (db: DB, from: ProcessIdentity, to: ProcessIdentity) =>
  db
    .updateTable("monitors")
    .set({ lease_pid: to.pid, lease_backend_start: backendStart(to) })
    .where("lease_pid", "=", from.pid)
    .where("lease_backend_start", "=", backendStart(from))
    .execute();

/**
 * Ends a tick: writes what it found and releases the lease. State changes only from running/error (a pause,
 * stop or delete made during the tick stands); the answer says the state the monitor is in now.
 */
export const finishTick = (db: DB, id: string, values: Updateable<MonitorsTable>) =>
  db
    .updateTable("monitors")
    .set({
      ...values,
      lease_until: null,
      state: values.state ? sql`case when state in ('running', 'error') then ${values.state} else state end` : undefined,
      status_message: values.state ? sql`case when state in ('running', 'error') then ${values.status_message ?? null}::text else status_message end` : undefined,
      next_run_at: sql`case when state in ('running', 'error') then ${values.next_run_at ?? null}::timestamptz else null end`,
    })
    .where("id", "=", id)
    .returning(["state", "next_run_at"])
    .executeTakeFirst();

export const releaseLease = (db: DB, id: string) => db.updateTable("monitors").set({ lease_until: null }).where("id", "=", id).execute();

/** Claims the right to save an auto-capture photo: only when the minimum gap since the last one has passed. */
export const claimSave = async (db: DB, id: string, minGapSeconds: number): Promise<boolean> =>
  Boolean(
    await db
      .updateTable("monitors")
      .set({ last_saved_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("last_saved_at", "is", null), eb("last_saved_at", "<=", sql<Date>`now() - ${minGapSeconds} * interval '1 second'`)]))
      .returning("id")
      .executeTakeFirst(),
  );

/**
 * Monitors that should have a tick job and have none alive: none queued, and none running recently enough to be
 * alive (`staleMs` is longer than any tick may run) in a process that is still there. After a crash, a lost job,
 * or an upgrade; a job that used up its attempts (its task threw each time) is no live job either. `lease_until` is
 * null when its holder is gone (the tick may run again at once).
 */
export async function monitorsWithoutJob(db: DB, staleMs: number): Promise<{ id: string; next_run_at: Date | null; lease_until: Date | null }[]> {
  const result = await sql<{ id: string; next_run_at: Date | null; lease_until: Date | null }>`
    select m.id, m.next_run_at, case when ${holderGone("m")} then null else m.lease_until end as lease_until from monitors m
    where m.state in ('running', 'error')
      and m.kind <> 'local_capture'
      and not exists (
        select 1 from graphile_worker.jobs j
        where j.key = 'monitor:' || m.id::text
          and ((j.locked_at is null and j.attempts < j.max_attempts) or (j.locked_at > now() - ${staleMs} * interval '1 millisecond' and not ${holderGone("m")})))`.execute(db);
  return result.rows;
}

/** Whether the camera is watched with local vision now (a local_capture monitor runs in that pipeline). */
export const cameraWatched = async (db: DB, cameraId: string): Promise<boolean> =>
  Boolean(await db.selectFrom("camera_watches").select("camera_id").where("camera_id", "=", cameraId).where("enabled", "=", true).executeTakeFirst());

/** The camera's line or zone a local_capture monitor names, with the classes it counts. */
export const findRegion = (db: DB, userId: string, cameraId: string, region: "line" | "zone", id: string) =>
  db
    .selectFrom(region === "line" ? "vision_lines" : "vision_zones")
    .select(["id", "name", "labels"])
    .where("user_id", "=", userId)
    .where("camera_id", "=", cameraId)
    .where("id", "=", id)
    .executeTakeFirst();

/** The camera's local_capture monitors that run (running, or in error after a failed photo). */
export const runningLocalMonitors = (db: DB, cameraId: string) =>
  db
    .selectFrom("monitors")
    .select(["id", "user_id", "camera_id", "name", "settings", "failures"])
    .where("camera_id", "=", cameraId)
    .where("kind", "=", "local_capture")
    .where("state", "in", ["running", "error"])
    .orderBy("created_at")
    .execute();

/** claimSave for a local_capture monitor, which also needs it still running: a pause or delete since the pipeline read it wins. */
export const claimLocalSave = async (db: DB, id: string, minGapSeconds: number): Promise<boolean> =>
  Boolean(
    await db
      .updateTable("monitors")
      .set({ last_saved_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("state", "in", ["running", "error"])
      .where((eb) => eb.or([eb("last_saved_at", "is", null), eb("last_saved_at", "<=", sql<Date>`now() - ${minGapSeconds} * interval '1 second'`)]))
      .returning("id")
      .executeTakeFirst(),
  );

/** What a local_capture run found; its state changes only from running/error (a pause made meanwhile stands). */
export const finishLocalRun = (db: DB, id: string, values: Updateable<MonitorsTable>) =>
  db
    .updateTable("monitors")
    .set({
      ...values,
      state: values.state ? sql`case when state in ('running', 'error') then ${values.state} else state end` : undefined,
      status_message: sql`case when state in ('running', 'error') then ${values.status_message ?? null}::text else status_message end`,
    })
    .where("id", "=", id)
    .execute();

/** The user row a monitor's AI calls are made as: the user, and their stored key ciphertext. */
