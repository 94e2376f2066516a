// Housekeeping that runs once per machine (the single app process, or a cluster's primary), never once per worker:
// the orphan-blob sweep, expired sessions, old local-vision batch ids, per-minute counts past their retention (Insights), timeline events past theirs, and the administrator setup token printed while no admin exists.
import { db } from "#db/index";
import { setupTokenAtStartUp } from "./accounts/first-admin";
import { deleteExpiredSessions } from "./accounts/queries";
import { config } from "./config";
import { logger } from "./logger";
import { forgetOldBatches } from "./local-vision/queries";
import { deleteOldMinutes } from "./insights/rollup";
import { deleteOldEvents } from "./timeline/service";
import { DEFAULT_MINUTE_RETENTION_DAYS } from "#app/schemas/insights";
import { openBlobStore } from "./storage/blob-store";
import { sweepOrphanBlobs } from "./storage/orphan-sweeper";

/** Starts the chores on the open database (initDb done); `stop` waits for any still running, before the pool closes. */
export function startChores(port: number): { stop: () => Promise<void> } {
  const blobs = openBlobStore(config().blobStore); // the store the app processes serve from (BLOB_STORE)
  const sweepBlobs = () =>
    sweepOrphanBlobs(db(), blobs, { graceMs: config().blobOrphanGraceMs })
      .then((result) => logger[result.orphans || result.temporaries ? "info" : "debug"](result, "orphan blob sweep"))
      .catch((error: unknown) => logger.warn({ err: error }, "orphan blob sweep failed"));
  // At start-up: a crash (power loss, SIGKILL) between an upload's blob writes and its row leaves orphans.
  const firstSweep = sweepBlobs();
  const setupTokenShown = showSetupToken(port);
  const sweep = setInterval(
    () => {
      void deleteExpiredSessions(db()).catch(() => {});
      void forgetOldBatches(db()).catch(() => {});
      void deleteOldMinutes(db(), DEFAULT_MINUTE_RETENTION_DAYS).catch((error: unknown) => logger.warn({ err: error }, "deleting old per-minute counts failed"));
      void deleteOldEvents(db()).catch((error: unknown) => logger.warn({ err: error }, "deleting old timeline events failed"));
      void sweepBlobs();
    },
    60 * 60 * 1000,
  );
  sweep.unref();
  return {
    async stop() {
      clearInterval(sweep);
      // Start-up chores finish first: a query they send after the pool began to end would wait for a connection
      // that never comes, and hold the stop until the query timeout (a stop right after "listening" did).
      await Promise.allSettled([firstSweep, setupTokenShown]);
    },
  };
}

/** While no administrator exists, says how to become one and prints the one-time setup token. */
async function showSetupToken(port: number): Promise<void> {
  // Not worth failing the start over: without it, the local sign-up and `npm run admin -- grant` still make an admin.
  const setupToken = await setupTokenAtStartUp(db()).catch((error: unknown) => {
    logger.warn({ err: error }, "could not prepare the administrator setup token");
    return null;
  });
  if (!setupToken) return;
  logger.warn(
    { setupToken, signUpUrl: `http://localhost:${port}/signup` },
    `No administrator yet. The first account created on this machine (http://localhost:${port}/signup) becomes it; ` +
      `from another machine, enter the one-time setup token ${setupToken} on the sign-up form (or run: npm run admin -- grant <username>)`,
  );
}
