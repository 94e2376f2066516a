// PTZ discovery after an IP camera is added or moved: the add answers as soon as the stream does, with the row
// marked ptz_checking (its ptz_port meanwhile the port to look at, null: each protocol's usual one), and a queued camera_ptz job (one per camera, keyed) probes ONVIF, HTTP-CGI and VISCA — whose
// timeouts on a silent port used to hold up the add by seconds — then writes what it found and clears the mark.
// The studio rereads the camera list while a camera says "checking PTZ…" (app/studio/cameras/cameras.ts).
import { sql } from "kysely";
import type { DB } from "#db/index";
import { enqueueKeyed } from "../jobs/queue";
import { logger } from "../logger";
import { splitHostPort } from "./camera-url";
import { findPtz } from "./discovery";
import { openCredentials } from "./source";
import type { PtzService } from "../ptz/service";

export interface PtzCheckJob {
  cameraId: string;
  /** The address the check is for (no credentials in it): a camera moved since is left to its own, newer check. */
  streamUrl: string;
  /** How often processes that could not open the camera's login passed the check on (see runPtzCheck). */
  handoffs?: number;
}

/** Passed on at most this often, a second apart, before the check gives up and records no PTZ. */
const MAX_HANDOFFS = 30;

/** Queues the check (in the caller's transaction, with the row it marks); a newer one for the camera replaces a waiting one. */
export async function queuePtzCheck(db: DB, job: PtzCheckJob, delayMs = 0): Promise<void> {
  await enqueueKeyed(db, "camera_ptz", { ...job }, { key: `camera_ptz:${job.cameraId}`, runAt: new Date(Date.now() + delayMs) });
}

/** The camera_ptz task: nothing found (or nothing answering) is an answer too, so only a database failure retries. */
export async function runPtzCheck(db: DB, ptz: PtzService, job: PtzCheckJob): Promise<void> {
  const row = await db.selectFrom("cameras").selectAll().where("id", "=", job.cameraId).executeTakeFirst();
  if (!row || !row.ptz_checking || row.stream_url !== job.streamUrl || !row.ip_host) return;
  const credentials = row.credentials ? openCredentials(row.credentials, row.user_id) : null;
  // A process that cannot open the login (its ENCRYPTION_KEY is not the one that sealed it) would try the default
  // one and write "no PTZ" for a camera that has it: it records nothing and passes the check on, a second later, to
  // whichever process takes it next (the queue's own retry would wait seconds, then longer).
  if (row.credentials && !credentials) {
    const handoffs = (job.handoffs ?? 0) + 1;
    const giveUp = handoffs > MAX_HANDOFFS;
    logger.warn(
      { camera: row.id, handoffs },
      `PTZ check ${giveUp ? "gives up" : "passed on"}: this process cannot open the camera's login (its ENCRYPTION_KEY is not the one that sealed it)`,
    );
    if (!giveUp) return queuePtzCheck(db, { ...job, handoffs }, 1000);
  }
  const found = await findPtz(ptz, splitHostPort(row.ip_host).hostname, credentials, row.ptz_port);
  await db
    .updateTable("cameras")
    .set({
      ptz_checking: false,
      ptz_protocol: found?.protocol ?? null,
      ptz_port: found?.port ?? null,
      // ONVIF media names the model when it answers; otherwise the PTZ answer may.
      ...(found?.model ? { model: sql<string>`case when model = 'IP camera' then ${found.model} else model end` } : {}),
    })
    .where("id", "=", job.cameraId)
    .where("stream_url", "=", job.streamUrl)
    .where("ptz_checking", "=", true)
    .execute();
}

/**
 * Start-up: a check whose process died mid-job stays locked in the queue for hours; queue each unfinished one again
 * (a check still running elsewhere just finds the same answer).
 */
export async function resumePtzChecks(db: DB): Promise<void> {
  const rows = await db.selectFrom("cameras").select(["id", "stream_url"]).where("ptz_checking", "=", true).execute();
  for (const row of rows) if (row.stream_url) await queuePtzCheck(db, { cameraId: row.id, streamUrl: row.stream_url });
}
