// A camera changed (address, login) or deleted through any app process: every process stops its stream of it, so
// its viewers reconnect to the new address and no process keeps pulling the old one (LISTEN/NOTIFY, db/listener.ts).
import { sql } from "kysely";
import type { DB } from "#db/index";
import { listen } from "#db/listener";
import { logger } from "../../logger";

const CHANNEL = "framewise_camera_changed";

/**
 * Calls `forget` with the id of every camera changed through any process (this one included) until the returned
 * function is called; `resync` once LISTEN is back after its connection was lost, since changes announced meanwhile
 * were missed.
 */
export function listenForCameraChanges(forget: (cameraId: string) => Promise<void>, resync: () => Promise<void>): () => void {
  let missed = false;
  return listen(CHANNEL, {
    onNotify: (cameraId) => void forget(cameraId).catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not stop a changed camera's stream")),
    onLost: () => {
      missed = true;
    },
    onListen: () => {
      if (!missed) return;
      missed = false;
      void resync().catch((error: unknown) => logger.warn({ err: error }, "could not check the streamed cameras for changes missed"));
    },
  });
}

/** Tells every process the camera changed. A notice lost with the database is logged, not thrown: this process forgot it already. */
export async function announceCameraChanged(db: DB, cameraId: string): Promise<void> {
  await sql`select pg_notify(${CHANNEL}, ${cameraId})`
    .execute(db)
    .catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not tell other processes a camera changed"));
}
