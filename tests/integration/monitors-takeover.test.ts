// A monitor across two app processes on one database: the process running one of its ticks is killed mid-tick
// (the fake Moondream holds the tick's AI call), and the surviving process runs the next tick within seconds, not
// when the dead tick's lease (105 s here) lapses; the monitor never runs two ticks at once. Everything is the
// production server, with the fake IP camera and the fake Moondream on loopback.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { signUpUser, type TestUser } from "../support/client";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

const PASSWORD = "takeover";
const SHARED_KEY = `takeover-${randomBytes(4).toString("hex")}`;
let camera: FakeIpCamera;
let moondream: FakeMoondream;
let sql: postgres.Sql;
let apps: TestApp[] = [];
/** Each process's relay address: its presence connection's application_name, which names a lease's holder. */
const relayOf = new Map<TestApp, string>();

beforeAll(async () => {
  let databaseUrl: string;
  [camera, moondream, databaseUrl] = await Promise.all([startFakeIpCamera({ username: "admin", password: PASSWORD }), startFakeMoondream(), createOwnDatabase()]);
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "3",
    DATA_DIR: tempDir("monitors-takeover"),
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", // the fake camera's loopback address and random ports
    PTZ_ALLOWED_PORTS: "1024-65535",
    MOONDREAM_ENDPOINT: moondream.url,
    MOONDREAM_API_KEY: SHARED_KEY,
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0", // a tick's deadline: 15 s grab + 30 s call + 30 s; its lease 30 s more
  };
  const ports = [await freePort(), await freePort()];
  // Their own process group each: killing one takes its ffmpeg children too, as a crash of its machine would.
  apps = await Promise.all(ports.map((port) => startApp({ ...env, CAMERA_RELAY_PORT: String(port) }, { detached: true })));
  apps.forEach((app, i) => relayOf.set(app, `http://127.0.0.1:${ports[i]}`));
}, 90_000);

afterAll(async () => {
  for (const app of apps) if (app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
  await sql?.end();
  await Promise.all([camera?.close(), moondream?.close()]);
});

function through(app: TestApp, user: TestUser, method: string, path: string, json?: unknown) {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { cookie: user.client.cookieHeader, origin: app.url, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

interface Row {
  state: string;
  failures: number;
  last_run_at: Date | null;
  last_result: { boxes?: number } | null;
  lease_until: Date | null;
  /** The relay address of the live process holding (or that last held) the lease; null when that process is gone. */
  holder: string | null;
}

describe("a monitor whose process dies mid-tick", () => {
  it("runs its next tick in the surviving process within seconds, never two ticks at once", async () => {
    const [one] = apps as [TestApp, TestApp];
    const user = await signUpUser({ baseUrl: one.url });
    const streamUrl = camera.rtspUrl("/1").replace("rtsp://", `rtsp://admin:${PASSWORD}@`);
    const added = await through(one, user, "POST", "/api/cameras/ip", { name: "Yard", streamUrl });
    expect(added.status).toBe(201);
    const cameraId = ((await added.json()) as { id: string }).id;
    const created = await through(one, user, "POST", "/api/monitors", { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 0 } });
    expect(created.status).toBe(201);
    const monitorId = ((await created.json()) as { id: string }).id;
    const row = async () =>
      (
        await sql<Row[]>`select m.state, m.failures, m.last_run_at, m.last_result, m.lease_until, a.application_name as holder
          from monitors m left join pg_stat_activity a on a.pid = m.lease_pid and a.backend_start = m.lease_backend_start
          where m.id = ${monitorId}`
      )[0]!;
    await expect.poll(async () => (await row()).last_run_at, { timeout: 30_000 }).not.toBeNull();

    // The next tick's AI call is held at the provider: the tick is mid-flight, and its process holds the lease.
    const gate = moondream.hold();
    await expect.poll(() => gate.waiting(), { timeout: 30_000 }).toBe(1);
    const during = await row();
    expect(during.lease_until).not.toBeNull();
    const dying = apps.find((app) => relayOf.get(app) === during.holder)!;
    expect(dying).toBeDefined();
    const survivor = apps.find((app) => app !== dying)!;
    const callsBefore = moondream.calls.filter((call) => call.key === SHARED_KEY).length;
    await dying.signalGroup("SIGKILL");
    gate.release();

    // The survivor runs the tick the dead process never finished: well before the dead tick's lease would lapse.
    await expect
      .poll(row, { timeout: 40_000, interval: 200 })
      .toMatchObject({ state: "running", failures: 0, holder: relayOf.get(survivor), lease_until: null, last_result: { boxes: expect.any(Number) as number } });
    expect((await row()).last_run_at!.getTime()).toBeGreaterThan(during.last_run_at!.getTime());
    // And keeps ticking there.
    await expect.poll(() => moondream.calls.filter((call) => call.key === SHARED_KEY).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(callsBefore + 3);
    expect(await row()).toMatchObject({ state: "running", failures: 0 });
    // Never two ticks at once: at most one of its AI calls was ever at the provider.
    expect(moondream.peakInFlight(SHARED_KEY)).toBe(1);
  }, 150_000);
});
