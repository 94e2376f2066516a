// Secrets at rest and in logs: an app of its own (so every line it writes is captured) is given canary
// passwords, tokens and keys through every door, then its whole log and every row of every table are
// searched for them as plain text.
import { randomBytes } from "node:crypto";
import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeIpCamera, startFakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { Client } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

const canary = (what: string) => `${what}-canary-${randomBytes(8).toString("hex")}`;
const SECRETS = {
  password: canary("pw"),
  wrongPassword: canary("wrongpw"),
  changedPassword: canary("formpw"),
  userApiKey: canary("mdkey"),
  invalidApiKey: `invalid-${canary("mdkey")}`,
  sharedApiKey: canary("shared"),
  smtpPassword: canary("smtp"),
  smsAuthToken: canary("sms"),
  ipCameraPassword: canary("campw"),
  wrongIpCameraPassword: canary("wrongcampw"),
};

let app: TestApp;
let fake: FakeMoondream;
let camera: FakeIpCamera;
let databaseUrl: string;
let log = "";
/** Secrets the app made itself (session tokens, the webhook signing secret), collected as they appear. */
const generated: Record<string, string> = {};

/** A loopback port nothing listens on: SMTP and SMS sends fail there, and their failures get logged. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  fake = await startFakeMoondream();
  camera = await startFakeIpCamera({ password: SECRETS.ipCameraPassword });
  databaseUrl = await createOwnDatabase();
  const dead = await closedPort();
  app = await startApp({
    DATABASE_URL: databaseUrl,
    DATA_DIR: tempDir("secrets"),
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: SECRETS.sharedApiKey,
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(dead),
    SMTP_USER: "mailer",
    SMTP_PASSWORD: SECRETS.smtpPassword,
    SMTP_FROM: "alerts@framewise.test",
    SMS_ACCOUNT_SID: "AC00000000000000000000000000000000",
    SMS_AUTH_TOKEN: SECRETS.smsAuthToken,
    SMS_FROM: "+15005550006",
    SMS_API_URL: `http://127.0.0.1:${dead}`,
    // The fake IP camera lives on loopback.
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
  });
  // Everything written from here on, unabridged (start-up lines are in app.logs already).
  log = app.logs.join("\n");
  app.process.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  app.process.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await camera?.close();
});

const tokenOf = (client: Client) => decodeURIComponent(/fw_session=([^;]+)/.exec(client.cookieHeader)?.[1] ?? "");

async function useEveryDoor() {
  const origin = { origin: app.url };
  const user = new Client(app.url, origin);
  const username = `canary_${randomBytes(4).toString("hex")}`;
  expect((await user.post("/api/auth/signup", { username, password: SECRETS.password })).status).toBe(201);
  generated.signupToken = tokenOf(user);
  // A wrong password, then the right one through the API and through the sign-in form.
  expect((await new Client(app.url, origin).post("/api/auth/login", { username, password: SECRETS.wrongPassword })).status).toBe(401);
  const api = new Client(app.url, origin);
  expect((await api.post("/api/auth/login", { username, password: SECRETS.password })).status).toBe(200);
  generated.loginToken = tokenOf(api);
  const form = new Client(app.url, origin);
  const formLogin = await form.request("POST", "/login", {
    body: new URLSearchParams({ username, password: SECRETS.password }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(formLogin.status).toBe(302);
  generated.formToken = tokenOf(form);
  // A sign-up form whose passwords differ: the page answers with errors and must not echo or log them.
  await new Client(app.url, origin).request("POST", "/signup", {
    body: new URLSearchParams({ username: `${username}x`, password: SECRETS.changedPassword, confirmPassword: `${SECRETS.changedPassword}!` }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  // The shared key, then the user's own key, then a key the provider refuses (a logged failure).
  const frame = await jpegDataUrl(64, 48);
  expect((await user.post("/api/moondream/caption", { imageData: frame })).status).toBe(200);
  expect((await user.post("/api/moondream/api-key", { apiKey: SECRETS.userApiKey })).status).toBe(200);
  expect((await user.post("/api/moondream/caption", { imageData: frame })).status).toBe(200);
  expect((await user.post("/api/moondream/api-key", { apiKey: SECRETS.invalidApiKey })).status).toBe(200);
  expect((await user.post("/api/moondream/caption", { imageData: frame })).status).toBeGreaterThanOrEqual(400);
  expect(fake.calls.map((c) => c.key)).toEqual(expect.arrayContaining([SECRETS.sharedApiKey, SECRETS.userApiKey, SECRETS.invalidApiKey]));
  // The webhook signing secret, read and rotated, and settings saved.
  generated.webhookSecret = ((await (await user.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
  generated.rotatedWebhookSecret = ((await (await user.post("/api/webhooks/secret")).json()) as { secret: string }).secret;
  expect((await user.post("/api/webhooks/settings", { webhookUrl: "https://hooks.example.invalid/in", webhookEnabled: false, webhookEventType: "simple" })).status).toBeLessThan(
    500,
  );
  // E-mail and SMS verification codes, sent through servers that are down (their failures are logged).
  await user.post("/api/alerts/contacts", { channel: "email", address: "owner@example.com" });
  await user.post("/api/alerts/contacts", { channel: "sms", address: "+15005550009" });
  // An IP camera added by host + password and by a URL with the password inside, a wrong password, PTZ by camera.
  const host = `127.0.0.1:${camera.ports.onvif}`;
  const added = await user.post("/api/cameras/ip", { name: "Canary cam", host, password: SECRETS.ipCameraPassword });
  expect(added.status).toBe(201);
  const withLogin = camera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${SECRETS.ipCameraPassword}@`);
  expect((await user.post("/api/cameras/ip", { name: "Canary URL", streamUrl: withLogin })).status).toBe(201);
  expect((await user.post("/api/cameras/ip", { name: "Wrong", host, password: SECRETS.wrongIpCameraPassword })).status).toBe(422);
  const cameraId = ((await added.json()) as { id: string }).id;
  expect((await user.post("/api/ptz/stop", { connection: { cameraId } })).status).toBe(200);
  // A signed-in page and API call carry the session cookie on every request.
  expect((await user.get("/studio")).status).toBe(200);
  expect((await user.get("/api/auth/me")).status).toBe(200);
  return user;
}

describe("secrets", () => {
  it("never appear in the server's log or as plain text in any row of any table", async () => {
    await useEveryDoor();
    // The request log lines of the last calls have been written once /readyz answers after them.
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    await expect.poll(() => log.includes("/readyz") || log.includes('"url":"/api/auth/me"'), { timeout: 10_000 }).toBe(true);
    expect(log.length).toBeGreaterThan(1000);
    const all = { ...SECRETS, ...generated };
    for (const [name, value] of Object.entries(all)) {
      expect(value.length, name).toBeGreaterThan(10);
      expect(log.includes(value), `the log contains the ${name}`).toBe(false);
    }

    // A dump of every row of every table in every schema (the app's and graphile-worker's queue), as text.
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const tables = await sql<{ schema: string; name: string }[]>`
        select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["users", "sessions", "webhook_settings"]));
      let dump = "";
      for (const { schema, name } of tables) {
        const rows = await sql.unsafe(`select t::text as row from "${schema}"."${name}" t`);
        dump += rows.map((r) => `${schema}.${name}: ${r.row as string}`).join("\n") + "\n";
      }
      expect(dump).toContain("canary_"); // the dump does hold the user's rows
      for (const [name, value] of Object.entries(all)) {
        expect(dump.includes(value), `the database holds the ${name} as plain text`).toBe(false);
      }
    } finally {
      await sql.end();
    }
  });
});
