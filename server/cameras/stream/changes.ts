// A camera changed (address, login) or deleted through any app process: every process stops its stream of it, so
// its viewers reconnect to the new address and no process keeps pulling the old one (LISTEN/NOTIFY, db/listener.ts).
import { sql } from "kysely";
import type { DB } from "#db/index";
import { listen } from "#db/listener";
import { logger } from "../../logger";

const CHANNEL = "framewise_camera_changed";

/** Calls `forget` with the id of every camera changed through any process (this one included) until the returned function is called. */
export function listenForCameraChanges(forget: (cameraId: string) => Promise<void>): () => void {
  return listen(CHANNEL, {
    onNotify: (cameraId) => void forget(cameraId).catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not stop a changed camera's stream")),
  });
}

/** Tells every process the camera changed. A notice lost with the database is logged, not thrown: this process forgot it already. */
export async function announceCameraChanged(db: DB, cameraId: string): Promise<void> {
  await sql`select pg_notify(${CHANNEL}, ${cameraId})`
    .execute(db)
    .catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not tell other processes a camera changed"));
}
