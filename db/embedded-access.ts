// PostgreSQL refuses to run as root, so a root process runs it as the unprivileged "postgres" OS user. These
// helpers find (or create) that user and ask the system, as that user, what it can reach.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

const NAME = "postgres";

function lookUp(): OsUser | undefined {
  const id = (flag: string) => {
    const result = spawnSync("id", [flag, NAME], { encoding: "utf8" });
    return result.status === 0 ? Number.parseInt(result.stdout, 10) : Number.NaN;
  };
  const uid = id("-u");
  const gid = id("-g");
  return Number.isInteger(uid) && Number.isInteger(gid) ? { name: NAME, uid, gid } : undefined;
}

/** The user PostgreSQL must run as: undefined when this process is not root (it runs as ourselves). */
export function postgresUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookUp();
  if (existing) return existing;
  // A system account without a home or a login shell: it only owns the cluster's files.
  const group = spawnSync("groupadd", ["--system", NAME], { encoding: "utf8" });
  const user = spawnSync("useradd", ["--system", "--gid", NAME, "--no-create-home", "--shell", "/usr/sbin/nologin", NAME], { encoding: "utf8" });
  const created = lookUp();
  if (created) return created;
  const reason = (user.error?.message ?? user.stderr.trim()) || (group.error?.message ?? group.stderr.trim());
  throw new Error(
    `PostgreSQL cannot run as root and there is no "${NAME}" user to run it as (creating one failed: ${reason || "unknown error"}); create that user or set DATABASE_URL`,
  );
}

/** Whether `user` can enter `dir` (search permission on it and every folder above it, ACLs and all). */
export function canEnter(user: OsUser, dir: string): boolean {
  const result = spawnSync("sh", ["-c", 'test -x "$1"', "sh", dir], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return result.status === 0;
}

/** Whether `user` can run the program at `file` (it loads its libraries relative to itself, so they count too). */
export function canRun(user: OsUser, file: string): boolean {
  const result = spawnSync(file, ["--version"], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return !result.error && result.status === 0;
}

/** The folder that stops `user` on the way to `dir`, described for a person: "/tmp/tmp.x1 (mode 0700, owner root)". */
export function blockingFolder(user: OsUser, dir: string): string {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const folder = path.sep + parts.slice(0, i).join(path.sep);
    if (canEnter(user, folder)) continue;
    try {
      const stat = statSync(folder);
      const owner = spawnSync("id", ["-nu", String(stat.uid)], { encoding: "utf8" }).stdout.trim() || `uid ${stat.uid}`;
      return `${folder} (mode ${(stat.mode & 0o7777).toString(8).padStart(4, "0")}, owner ${owner})`;
    } catch {
      return folder;
    }
  }
  return path.resolve(dir);
}
