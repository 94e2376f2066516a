// Seeds data through server services, in the test worker, against the e2e server's database and blob
// directory — for records that only the vision service creates (people-count snapshots) and state no
// route sets (how many free shared-key calls a user has spent).
import sharp from "sharp";
import type * as CountingService from "#server/counting/service";
import type { PipelineStats } from "#app/schemas/watch";
import type { IpCameraRow } from "../support/ip-cameras";
import { openTestBlobStore } from "../support/blob-store";

let ready: Promise<typeof CountingService> | undefined;

async function counting() {
  ready ??= (async () => {
    process.env.DATA_DIR = process.env.E2E_DATA_DIR;
    process.env.LOG_LEVEL = "silent";
    const { initDb } = await import("#db/index");
    initDb(process.env.E2E_DATABASE_URL!, 2);
    // As an app process does at start-up: a seeded snapshot's count event reaches the alert rules.
    (await import("#server/automation/listeners")).registerListeners();
    return import("#server/counting/service");
  })();
  return ready;
}

export async function seedSnapshots(userId: string, sessionId: string, counts: Array<number | [number, number]>): Promise<void> {
  const { addSnapshot } = await counting();
  const { db } = await import("#db/index");
  const blobs = await openTestBlobStore();
  const image = await sharp({ create: { width: 320, height: 180, channels: 3, background: "#445566" } })
    .jpeg()
    .toBuffer();
  for (const count of counts) {
    const [min, max] = Array.isArray(count) ? count : [null, null];
    const aiCount = Array.isArray(count) ? Math.round((count[0] + count[1]) / 2) : count;
    await addSnapshot(db(), blobs, userId, sessionId, { image, aiCount, aiCountMin: min, aiCountMax: max });
  }
}

/** Sets how many of the free shared-key calls this user has used (e.g. 99: the next call is the last). */
export async function seedSharedCallsUsed(username: string, used: number): Promise<void> {
  await counting(); // opens the database
  const { db } = await import("#db/index");
  const result = await db().updateTable("users").set({ shared_key_calls_used: used }).where("username", "=", username).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`no user ${username}`);
}

/** An IP camera row for this user, as adding one would store it: by default at a closed loopback port. */
export async function seedIpCamera(username: string, name: string, row?: IpCameraRow): Promise<string> {
  await counting(); // opens the database
  const { db } = await import("#db/index");
  const { closedCameraRow, insertIpCamera } = await import("../support/ip-cameras");
  const user = await db().selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow();
  return insertIpCamera(db(), user.id, { ...(row ?? closedCameraRow()), name });
}

/**
 * What a process running the camera's watch pipeline writes every few seconds (as server/local-vision/pipeline does):
 * its figures, now, and optionally its last line or zone event. The camera's watch row must exist (switched on once).
 */
export async function seedWatchStats(cameraId: string, stats: PipelineStats, lastEventAt: Date | null = null): Promise<void> {
  await counting(); // opens the database
  const { db } = await import("#db/index");
  const { sql } = await import("kysely");
  const result = await db()
    .updateTable("camera_watches")
    .set({ stats, stats_at: sql`now()`, last_event_at: lastEventAt })
    .where("camera_id", "=", cameraId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`no watch for camera ${cameraId}`);
}
