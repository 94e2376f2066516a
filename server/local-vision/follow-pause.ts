// A manual PTZ command pauses the server's follow of that camera (issue 30): the route's process writes the pause
// (camera_watches.follow_paused_at, read by every process's next sweep) and tells every process at once over
// LISTEN/NOTIFY, so the one following stops driving the camera within a moment rather than at its next sweep.
import { sql } from "kysely";
import type { DB } from "#db/index";
import { listen } from "#db/listener";
import { logger } from "../logger";

const CHANNEL = "framewise_follow_paused";

/** Calls `paused` with the camera id of every follow paused through any process until the returned function is called. */
export function listenForFollowPauses(paused: (cameraId: string) => void): () => void {
  // A notice missed while the connection was down is caught by the sweep, which reads the column.
  return listen(CHANNEL, { onNotify: paused });
}

export async function announceFollowPaused(db: DB, cameraId: string): Promise<void> {
  await sql`select pg_notify(${CHANNEL}, ${cameraId})`
    .execute(db)
    .catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not tell other processes a follow was paused"));
}
