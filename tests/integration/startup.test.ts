// Whole-process behaviour: the embedded database path, first-user-is-admin, the admin CLI, graceful stop.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isListening } from "../../db/embedded";
import { Client, signUpUser } from "../support/client";
import { freePort, ROOT, startApp, tempDir, type TestApp } from "../support/stack";

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
