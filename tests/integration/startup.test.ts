// Whole-process behaviour: the embedded database path, first-user-is-admin, the admin CLI, graceful stop, start-up
// from a checkout in a folder only its owner may enter, and a console that says only what a user needs.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isListening } from "#db/embedded";
import { checkoutInPrivateFolder } from "../support/checkout";
import { Client, signUpUser } from "../support/client";
import { createOwnDatabase } from "../support/webhook-receiver";
import { freePort, ROOT, startApp, tempDir, type TestApp } from "../support/stack";

const asRoot = process.getuid?.() === 0;

describe("with no DATABASE_URL (embedded PostgreSQL)", () => {
  const dataDir = tempDir("embedded");
  let pgPort: number;
  let app: TestApp;

  beforeAll(async () => {
    pgPort = await freePort();
    app = await startApp({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort) });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("initialises the cluster under DATA_DIR/postgres, keeps generated secrets in DATA_DIR, and serves sign-up", async () => {
    expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
    const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
    expect(secrets.sessionSecret).toHaveLength(43);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const founder = await signUpUser({ baseUrl: app.url });
    const me = await (await founder.client.get("/api/auth/me")).json();
    expect(me.role).toBe("admin");
    const second = await signUpUser({ baseUrl: app.url });
    expect((await (await second.client.get("/api/auth/me")).json()).role).toBe("user");

    // SIGTERM stops the app and its database cleanly; a restart keeps the data and the session.
    expect(await app.stop()).toBe(0);
    expect(await isListening(pgPort)).toBe(false);
    app = await startApp({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort) });
    const again = new Client(app.url);
    const response = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: founder.client.cookieHeader } });
    expect(response.status).toBe(200);
    expect((await again.post("/api/auth/login", { username: second.username, password: second.password })).status).toBe(200);

    // The admin CLI joins the running embedded server.
    const cli = spawnSync(process.execPath, [path.join(ROOT, "bin/admin.js"), "grant", second.username.toUpperCase()], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort), LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    expect(cli.stderr).toBe("");
    expect(cli.stdout).toContain(`${second.username} is now an admin.`);
    expect((await (await again.get("/api/auth/me")).json()).role).toBe("admin");
  }, 90_000);
});

describe("admin CLI", () => {
  it("explains its usage and fails for an unknown user", () => {
    const env = { PATH: process.env.PATH, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent" };
    const usage = spawnSync(process.execPath, [path.join(ROOT, "bin/admin.js"), "promote"], { cwd: ROOT, env, encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run admin -- grant <username> | revoke <username> | delete <username>");
    const missing = spawnSync(process.execPath, [path.join(ROOT, "bin/admin.js"), "revoke", "nobody_here"], { cwd: ROOT, env, encoding: "utf8" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("No user named 'nobody_here'");
  });

  it("grants and revokes the admin role on the shared database", async () => {
    const user = await signUpUser();
    const env = { PATH: process.env.PATH, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent" };
    const run = (command: string) => spawnSync(process.execPath, [path.join(ROOT, "bin/admin.js"), command, user.username], { cwd: ROOT, env, encoding: "utf8" });
    expect(run("grant").status).toBe(0);
    expect((await user.client.get("/api/admin/users")).status).toBe(200);
    expect(run("revoke").status).toBe(0);
    expect((await user.client.get("/api/admin/users")).status).toBe(403);
  });
});

describe("from a checkout inside a mode 0700 folder (a `mktemp -d` one)", () => {
  // As root, PostgreSQL runs as the "postgres" user, who cannot enter the folder to reach its binaries or
  // ./data/postgres; as anyone else the folder is the user's own and the cluster stays in ./data/postgres.
  it(`starts with npm start's defaults and signs up${asRoot ? " (as root: the cluster is kept where the postgres user can reach it)" : ""}`, async () => {
    const checkout = checkoutInPrivateFolder();
    const env = { EMBEDDED_POSTGRES_PORT: String(await freePort()), DATA_DIR: undefined };
    const cluster = path.join(checkout.root, "data", "postgres");
    let app: TestApp | undefined;
    const relocated: string[] = [];
    try {
      app = await startApp(env, { root: checkout.root });
      const user = await signUpUser({ baseUrl: app.url });
      if (asRoot) {
        expect(lstatSync(cluster).isSymbolicLink()).toBe(true);
        relocated.push(path.dirname(readlinkSync(cluster)));
        expect(relocated[0]!.startsWith("/var/lib/framewise/")).toBe(true);
        expect(app.logs.join("\n")).toContain(`its cluster is kept in ${relocated[0]}/postgres`);
      } else {
        expect(existsSync(path.join(cluster, "PG_VERSION"))).toBe(true);
      }
      // The data survives a restart (through the link, as root).
      expect(await app.stop("SIGINT")).toBe(0);
      app = await startApp(env, { root: checkout.root });
      expect((await new Client(app.url).post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(200);

      // Deleting ./data starts over: a fresh, empty database (as root, in a fresh folder; the one left behind is named
      // with how to remove it).
      expect(await app.stop("SIGINT")).toBe(0);
      rmSync(path.join(checkout.root, "data"), { recursive: true, force: true });
      app = await startApp(env, { root: checkout.root });
      expect((await new Client(app.url).post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(401);
      const founder = await signUpUser({ baseUrl: app.url });
      expect((await (await founder.client.get("/api/auth/me")).json()).role).toBe("admin");
      if (asRoot) {
        relocated.push(path.dirname(readlinkSync(cluster)));
        expect(relocated[1]).not.toBe(relocated[0]);
        expect(existsSync(path.join(relocated[0]!, "postgres", "PG_VERSION"))).toBe(true);
        const warning = app.logs.filter((line) => line.includes(`rm -rf ${relocated[0]}`));
        expect(warning).toHaveLength(1);
        expect(warning[0]).not.toContain(relocated[1]);
      }
    } finally {
      await app?.stop();
      checkout.remove();
      for (const folder of relocated) rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("the console", () => {
  it("shows only the listening line on a first start and the shutdown lines on Ctrl-C", async () => {
    const dataDir = tempDir("quiet");
    const app = await startApp({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await freePort()) }, { detached: true });
    try {
      await signUpUser({ baseUrl: app.url }); // a user's first request, and the job queue's connections in use
      // A terminal's Ctrl-C signals the whole foreground process group, PostgreSQL included if it is in it.
      expect(await app.signalGroup("SIGINT")).toBe(0);
      const lines = app.logs
        .join("\n")
        .split("\n")
        .filter((line) => line.trim());
      const unexpected = lines.filter((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; level?: number };
          if (entry.msg === "request completed" && entry.level === 30) return false;
          // Run from a checkout the postgres user cannot enter, as root, where its binaries are is worth a line.
          if (entry.msg?.startsWith('PostgreSQL runs as the unprivileged "postgres" user')) return false;
          // A new database has no administrator: how to become one (and the setup token) is what a user needs.
          if (entry.msg?.startsWith("No administrator yet.")) return false;
          return !["listening", "shutting down", "stopped"].includes(entry.msg ?? "");
        } catch {
          return true;
        }
      });
      expect(unexpected).toEqual([]);
      expect(lines.filter((line) => line.includes('"msg":"listening"'))).toHaveLength(1);
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("prints nothing while Vite and React Router load the configuration (as npm run dev and every build do)", () => {
    const script = 'const { resolveConfig } = await import("vite"); await resolveConfig({ root: process.cwd() }, "serve"); process.exit(0);';
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toBe("");
  }, 60_000);
});

describe("a stop sent the moment the server says it is listening", () => {
  it("still shuts down cleanly (exit 0), on a new database where start-up has more to do", async () => {
    // A new database has no administrator, so start-up goes on preparing the setup token after "listening":
    // a SIGTERM then must meet the shutdown handler, not the default action that kills the process (exit null).
    for (let i = 0; i < 3; i++) {
      const app = await startApp({ DATABASE_URL: await createOwnDatabase(), DATA_DIR: tempDir("stop-at-once") });
      expect(await app.stop(), app.logs.slice(-5).join("\n")).toBe(0);
    }
  }, 90_000);
});
