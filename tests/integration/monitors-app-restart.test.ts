// A monitor keeps going across a real restart of the app: the production server runs as its own process, with the
// fake IP camera, the fake Moondream and a webhook receiver on loopback, and no browser at all. Everything is made
// through the API; the process is stopped and started again on the same database and data directory.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { Client, signUpUser } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, until, type Receiver } from "../support/webhook-receiver";

const PASSWORD = "s3cret-restart";
let fake: FakeMoondream;
let camera: FakeIpCamera;
let receiver: Receiver;
let env: Record<string, string>;
let sql: postgres.Sql;
let app: TestApp | undefined;

beforeAll(async () => {
  let databaseUrl: string;
  [fake, camera, receiver, databaseUrl] = await Promise.all([
    startFakeMoondream(),
    startFakeIpCamera({ username: "admin", password: PASSWORD }),
    startReceiver(),
    createOwnDatabase(),
  ]);
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: tempDir("monitors-restart"),
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: "shared-restart-key",
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0",
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8",
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", // the fake camera's loopback address and random ports
    PTZ_ALLOWED_PORTS: "1024-65535",
  };
  // Its own process group: stopping it after a failure takes its ffmpeg children too.
  app = await startApp(env, { detached: true });
});

afterAll(async () => {
  if (app && app.process.exitCode === null) await app.signalGroup("SIGKILL");
  await sql?.end();
  await Promise.all([fake?.close(), camera?.close(), receiver?.close()]);
});

const autoPhotos = async (userId: string, since = new Date(0)) =>
  Number((await sql`SELECT count(*) AS n FROM photos WHERE user_id = ${userId} AND auto_capture AND created_at > ${since}`)[0]!.n);
const deliveries = (cameraId: string) => receiver.accepted().filter((d) => d.payload.data.cameraId === cameraId).length;

describe("a monitor across an app restart", () => {
  it("captures and fires webhooks with no browser, stops with the process and goes on in the next one; stale statuses are reset", async () => {
    const user = await signUpUser({ baseUrl: app!.url });
    const added = await user.client.post("/api/cameras/ip", { name: "Dock", host: `127.0.0.1:${camera.ports.onvif}`, username: "admin", password: PASSWORD });
    expect(added.status).toBe(201);
    const { id: cameraId } = (await added.json()) as { id: string };
    const spare = await user.client.post("/api/cameras/ip", { name: "Spare", streamUrl: camera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${PASSWORD}@`) });
    expect(spare.status).toBe(201);
    const { id: spareId } = (await spare.json()) as { id: string };
    expect((await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "detailed" })).status).toBe(200);
    const created = await user.client.post("/api/monitors", { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 0 } });
    expect(created.status).toBe(201);
    const { id: monitorId } = (await created.json()) as { id: string };

    await until(
      () => autoPhotos(user.id),
      (n) => n >= 1,
      40_000,
    );
    await receiver.waitFor(() => deliveries(cameraId) >= 1, 30_000);

    expect(await app!.stop()).toBe(0);
    const stoppedAt = new Date();
    const deliveredBefore = deliveries(cameraId);
    // What a crash (no offline written) leaves behind, on a camera nothing will pull after the restart.
    await sql`UPDATE cameras SET status = 'online', status_reason = NULL WHERE id = ${spareId}`;

    app = await startApp(env, { detached: true });
    const again = new Client(app.url);
    expect((await again.post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(200);
    const cameras = (await (await again.get("/api/cameras")).json()) as Array<{ id: string; status: string; statusReason: string | null }>;
    expect(cameras.find((c) => c.id === spareId)).toMatchObject({ status: "offline", statusReason: null });

    await until(
      () => autoPhotos(user.id, stoppedAt),
      (n) => n >= 2,
      40_000,
    );
    await receiver.waitFor(() => deliveries(cameraId) >= deliveredBefore + 2, 30_000);
    const list = (await (await again.get("/api/monitors")).json()) as Array<{ id: string; state: string }>;
    expect(list.find((m) => m.id === monitorId)?.state).toBe("running");
    expect(await app.stop()).toBe(0);
  }, 150_000);
});
