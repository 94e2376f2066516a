// Starts the real pieces for tests: an embedded PostgreSQL and the production server as a child process.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres } from "#db/embedded";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `framewise-${prefix}-`));
  chmodSync(dir, 0o755); // the embedded server runs as the "postgres" user when tests run as root
  return dir;
}

export interface TestPostgres {
  /** A URL for the given database on this server. */
  urlFor(database: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = tempDir("pg");
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dir: path.join(dir, "postgres"), port, database: "framewise_test", ephemeral: true });
  const base = new URL(server.url);
  const urlFor = (database: string) => {
    const url = new URL(base);
    url.pathname = `/${database}`;
    return url.toString();
  };
  return {
    urlFor,
    async createDatabase(name = `fw_${Math.random().toString(36).slice(2, 10)}`) {
      const admin = postgres(urlFor("postgres"), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database "${name}"`);
      await admin.end();
      return urlFor(name);
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  url: string;
  port: number;
  process: ChildProcess;
  logs: string[];
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Signals the app's whole process group (needs `detached`) and resolves with the exit code. */
  signalGroup(signal: NodeJS.Signals): Promise<number | null>;
}

/** What every app started here is given unless its caller says otherwise. */
export const APP_DEFAULTS: Record<string, string | undefined> = {
  // Test suites create many accounts from 127.0.0.1; tests of the sign-up limit set their own.
  SIGNUP_MAX_PER_IP_PER_HOUR: "100000",
  // Every JSON answer is checked against its operation's schema (a mismatch answers 500), as in development;
  // benchmarks turn this off (bench/run.ts) to measure what production runs.
  API_RESPONSE_CHECKS: "true",
};

/**
 * Runs `node bin/server.js` (the production build) and waits for its "listening" log line. A variable given as
 * undefined is left out, so the app uses its own default (e.g. `SIGNUP_MAX_PER_IP_PER_HOUR: undefined`). `root` is
 * the checkout to run (and the working directory); `detached` gives the app its own process group, so `signalGroup`
 * can signal it the way a terminal's Ctrl-C does: the app and every child still in its group.
 */
/** `dev`: run as `npm run dev` does (Vite in middleware mode, React's development build with StrictMode). */
export async function startApp(env: Record<string, string | undefined>, options: { root?: string; detached?: boolean; dev?: boolean } = {}): Promise<TestApp> {
  const logs: string[] = [];
  const root = options.root ?? ROOT;
  const settings: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: options.dev ? "development" : "production",
    PORT: "0",
    HOST: "127.0.0.1",
    TRUST_PROXY: "loopback",
    ...APP_DEFAULTS,
    ...env,
    LOG_LEVEL: "info", // the "listening" line tells us the port
  };
  const child = spawn(process.execPath, [path.join(root, "bin/server.js"), ...(options.dev ? ["--dev"] : [])], {
    cwd: root,
    detached: options.detached ?? false,
    env: Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    let listening = false;
    const onData = (chunk: Buffer) => {
      // After start-up only a bounded tail is kept, unparsed: a busy server logs a line per request, and
      // parsing them here would load the very machine that benchmarks measure.
      if (listening) {
        logs.push(chunk.toString());
        if (logs.length > 200) logs.splice(0, logs.length - 200);
        return;
      }
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        logs.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === "listening" && entry.port) {
            listening = true;
            resolve(entry.port);
          }
        } catch {
          // not a JSON log line (e.g. build output)
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`The app exited with ${code} before listening:\n${logs.slice(-30).join("\n")}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    logs,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    async signalGroup(signal) {
      process.kill(-child.pid!, signal);
      return exited;
    },
  };
}
