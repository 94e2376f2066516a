// WEB_CONCURRENCY > 1: a primary process owns the machine-wide parts (the embedded PostgreSQL, migrations, the
// once-per-machine chores) and runs that many app workers (node:cluster) sharing one port. It replaces a crashed
// worker (with backoff), restarts them one at a time on SIGUSR2 (a new one listens before an old one drains), and
// on SIGTERM/SIGINT/SIGHUP lets every worker drain before PostgreSQL stops. Workers get the database's URL as
// DATABASE_URL, so each is the same app a second machine would run.
import cluster, { type Worker } from "node:cluster";
import { closeDb, initDb } from "#db/index";
import type { EmbeddedDatabase } from "#db/embedded";
import { ffmpegBinary, ffmpegLogLine, ffmpegWarning } from "./cameras/stream/ffmpeg-binary";
import { config } from "./config";
import { logger } from "./logger";
import { stopOnSignals } from "./stop-signals";

type Serve = (options: { databaseUrl: string }) => Promise<{ port: number; stop: () => Promise<void> }>;
type StartDatabase = (poolSize: number) => Promise<{ embedded: EmbeddedDatabase | undefined; url: string }>;
type StartChores = (port: number) => { stop: () => Promise<void> };

/** A worker tells its primary it listens (the primary's "listening" line waits for all of them). */
interface ListeningMessage {
  type: "framewise:listening";
  port: number;
}

const isListening = (message: unknown): message is ListeningMessage => (message as ListeningMessage | null)?.type === "framewise:listening";

/** The primary's own pool: migrations and chores only; requests are the workers'. */
const PRIMARY_POOL_SIZE = 2;
/** A crashed worker is replaced after 1 s, doubling per crash in a row up to 30 s; one that lived a minute resets it. */
const RESPAWN_FIRST_MS = 1_000;
const RESPAWN_MAX_MS = 30_000;
const STABLE_MS = 60_000;

export async function runWorker(serve: Serve): Promise<void> {
  const databaseUrl = config().database.url;
  if (!databaseUrl) throw new Error("a worker process needs DATABASE_URL (its primary sets it)");
  initDb(databaseUrl, config().database.poolSize);
  const serving = await serve({ databaseUrl });
  // A worker whose primary went away (killed) is ended by node:cluster itself when the IPC channel closes.
  stopOnSignals(async () => {
    await serving.stop();
    await closeDb();
  });
  // SIGUSR2 is the primary's (a rolling restart); one sent to the whole process group must not end a worker.
  process.on("SIGUSR2", () => {});
  logger.info({ port: serving.port }, "worker listening");
  process.send?.({ type: "framewise:listening", port: serving.port } satisfies ListeningMessage);
}

export async function runPrimary(count: number, startDatabase: StartDatabase, startChores: StartChores): Promise<void> {
  const started = performance.now();
  const ffmpegFound = ffmpegBinary(); // probed while the database starts, named in the "listening" line
  const { embedded, url } = await startDatabase(PRIMARY_POOL_SIZE);

  interface State {
    listening: boolean;
    retiring: boolean;
    /** Replaces a crashed worker: its own failure to start is a crash too (the initial and restart ones' are reported). */
    replacement: boolean;
    startedAt: number;
  }
  const states = new Map<Worker, State>();
  let stopping = false;
  let crashesInARow = 0;
  const respawnTimers = new Set<NodeJS.Timeout>();

  /** Started once every worker listens (the setup token names the port). */
  const running: { chores?: { stop: () => Promise<void> } } = {};

  /** The port once the worker listens, null if it exits first. */
  const listeningOf = (worker: Worker) =>
    new Promise<number | null>((resolve) => {
      worker.on("message", (message) => isListening(message) && resolve(message.port));
      worker.once("exit", () => resolve(null));
    });

  const spawn = (replacement: boolean): Worker => {
    const worker = cluster.fork({ DATABASE_URL: url });
    const state: State = { listening: false, retiring: false, replacement, startedAt: Date.now() };
    states.set(worker, state);
    worker.on("message", (message) => {
      if (isListening(message)) state.listening = true;
    });
    worker.once("exit", (code, signal) => {
      states.delete(worker);
      if (stopping || state.retiring) return;
      if (!state.listening && !state.replacement) return; // an initial or restart worker: its waiter reports it
      if (Date.now() - state.startedAt >= STABLE_MS) crashesInARow = 0;
      const delayMs = Math.min(RESPAWN_MAX_MS, RESPAWN_FIRST_MS * 2 ** crashesInARow);
      crashesInARow += 1;
      logger.error({ workerPid: worker.process.pid, code, signal, respawnInMs: delayMs }, "a worker process died; a new one replaces it");
      const timer = setTimeout(() => {
        respawnTimers.delete(timer);
        if (!stopping) spawn(true);
      }, delayMs);
      respawnTimers.add(timer);
    });
    return worker;
  };

  const retire = (worker: Worker) => {
    const state = states.get(worker);
    if (state) state.retiring = true;
    const exited = new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once("exit", () => resolve())));
    worker.process.kill("SIGTERM"); // it drains like a stopped single process (server/stop-signals.ts)
    return exited;
  };

  const stopAll = async () => {
    stopping = true;
    for (const timer of respawnTimers) clearTimeout(timer);
    await Promise.all([...states.keys()].map(retire));
    await running.chores?.stop();
    await closeDb();
    await embedded?.stop();
  };

  // A worker that cannot start (a port in use, a broken build) fails the whole start, as one process would.
  const ports = await Promise.all(Array.from({ length: count }, () => listeningOf(spawn(false))));
  if (ports.includes(null)) {
    logger.error("a worker process exited before listening; stopping");
    await stopAll();
    process.exit(1);
  }

  let restarting = false;
  const rollingRestart = async () => {
    if (restarting || stopping) return;
    restarting = true;
    logger.info({ workers: states.size }, "rolling restart");
    for (const old of [...states.keys()]) {
      if (stopping) break;
      const fresh = spawn(false);
      if ((await listeningOf(fresh)) === null) {
        logger.error("a new worker process exited before listening; the restart stops and the running workers keep serving");
        break;
      }
      if (old.isDead()) continue; // crashed meanwhile: its replacement was already booked
      await retire(old);
    }
    restarting = false;
    if (!stopping) logger.info({ workers: states.size }, "rolling restart done");
  };

  // With PORT=0 node:cluster gives every worker the same free port.
  const port = ports[0]!;
  running.chores = startChores(port);
  // Workers wait a webhook timeout's grace each, in parallel; the primary's own stop comes after theirs.
  stopOnSignals(stopAll, { extraGraceMs: 10_000 });
  process.on("SIGUSR2", () => void rollingRestart());
  const ffmpeg = await ffmpegFound;
  const ffmpegTrouble = ffmpegWarning(ffmpeg);
  if (ffmpegTrouble) logger.warn(ffmpegTrouble);
  logger.info({ port, url: `http://localhost:${port}`, workers: count, startupMs: Math.round(performance.now() - started), ffmpeg: ffmpegLogLine(ffmpeg) }, "listening");
}
