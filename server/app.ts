// The Node entry: the database (embedded or DATABASE_URL, migrated), one process or a cluster, and the signals that
// stop it. What one app process is made of, and in which order, is server/composition.ts.
import cluster from "node:cluster";
import type { ViteDevServer } from "vite";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#db/embedded";
import { closeDb, db, initDb, migrate } from "#db/index";
import { migrations } from "#db/migrations/index";
import { config } from "./config";
import { isDatabaseUnavailable } from "./http/api";
import { logger } from "./logger";
import { ffmpegBinary, ffmpegLogLine, ffmpegWarning } from "./cameras/stream/ffmpeg-binary";
import { createServer } from "./composition";
import type { Services } from "./services";
import { startChores } from "./chores";
import { stopOnSignals } from "./stop-signals";
import { runPrimary, runWorker } from "./cluster";

declare module "react-router" {
  interface AppLoadContext {
    /** Undefined for a page rendered once for everyone (server/http/prerendered-pages.ts). */
    cspNonce: string | undefined;
    /** The process's long-lived parts, built by the composition root (server/composition.ts). */
    services: Services;
  }
}

export { runAdminCommand } from "./cli/admin";
export { runBlobsCommand } from "./cli/blobs";

const FIRST_MIGRATION = Object.keys(migrations)[0]!;

/** Connects to DATABASE_URL or starts the embedded server, then migrates (once per machine: here or in the cluster's primary). */
async function startDatabase(poolSize = config().database.poolSize): Promise<{ embedded: EmbeddedDatabase | undefined; url: string }> {
  const { database } = config();
  let embedded: EmbeddedDatabase | undefined;
  let url = database.url;
  if (!url) {
    logger.debug({ dir: database.embeddedDir, port: database.embeddedPort }, "starting embedded PostgreSQL");
    embedded = await startEmbeddedPostgres({
      dir: database.embeddedDir,
      port: database.embeddedPort,
      notice: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
    });
    url = embedded.url;
  }
  initDb(url, poolSize);
  const applied = await migrate(db());
  // Worth a line when an upgrade changes an existing database; a new one getting its schema is no news.
  if (applied.length) logger[applied.includes(FIRST_MIGRATION) ? "debug" : "info"]({ applied }, "migrations applied");
  return { embedded, url };
}

/**
 * postgres.js 3.4.9 can leave a promise of a connection that died (PostgreSQL restarting, connections killed) with
 * no handler; Node's default would end the whole server for it (seen by `npm run test:faults`). Such a lost
 * connection is logged and the pool reconnects; any other unhandled rejection still ends the process as before.
 */
function surviveLostDatabaseConnections() {
  process.on("unhandledRejection", (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, "a database connection was lost (unhandled in the driver); the pool reconnects");
      return;
    }
    throw reason;
  });
}

export async function main(options: { vite?: ViteDevServer } = {}): Promise<void> {
  surviveLostDatabaseConnections();
  // Development (Vite's hot reloading) is always one process.
  if (cluster.isWorker) return runWorker(createServer);
  if (!options.vite && config().webConcurrency > 1) return runPrimary(config().webConcurrency, startDatabase, startChores);
  const started = performance.now();
  const ffmpegFound = ffmpegBinary(); // probed while the database starts, named in the "listening" line
  const { embedded, url: databaseUrl } = await startDatabase();
  const serving = await createServer({ vite: options.vite, databaseUrl });
  const chores = startChores(serving.port);
  stopOnSignals(async () => {
    await serving.stop();
    await chores.stop();
    await options.vite?.close();
    await closeDb();
    await embedded?.stop();
  });
  // SIGUSR2 restarts the workers of a cluster (server/cluster.ts); one process has none, and must not die of it.
  process.on("SIGUSR2", () => logger.warn("SIGUSR2 restarts worker processes, and this server runs one (WEB_CONCURRENCY=1): ignored"));
  const ffmpeg = await ffmpegFound;
  const ffmpegTrouble = ffmpegWarning(ffmpeg);
  if (ffmpegTrouble) logger.warn(ffmpegTrouble);
  logger.info({ port: serving.port, url: `http://localhost:${serving.port}`, startupMs: Math.round(performance.now() - started), ffmpeg: ffmpegLogLine(ffmpeg) }, "listening");
}
