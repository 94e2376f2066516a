// Monitors across app processes: a tick's lease names the process holding it by its presence connection
// (server/cameras/stream/presence.ts), so a process that dies mid-tick is seen gone at once. Every few seconds each
// process sweeps for monitors left that way and books their tick again (any live process then runs it), rather than
// waiting for the lease's time and the minute's sweep; the leases follow this process if its connection is replaced.
import type { DB } from "#db/index";
import { onIdentityMoved, processIdentity } from "../cameras/stream/presence";
import { logger } from "../logger";
import { moveLeases } from "./queries";
import { sweepMonitors } from "./runner";

/** How soon a dead process's monitors are taken over (one small query per period and process). */
const CHECK_EVERY_MS = 5_000;

/** Starts watching (with a presence connection only: without one this process is the only one); returns the stop. */
export function watchTakeovers(db: DB): () => void {
  const unsubscribe = onIdentityMoved(async (from, to) => {
    await moveLeases(db, from, to);
  });
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping || !processIdentity()) return;
    sweeping = true;
    sweepMonitors(db)
      .catch((error: unknown) => logger.warn({ err: error }, "could not look for monitors of stopped processes"))
      .finally(() => (sweeping = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
