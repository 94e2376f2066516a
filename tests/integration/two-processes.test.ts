// Two app processes of one deployment on one database and data directory (two machines, or WEB_CONCURRENCY's
// workers): a session made on one is good on the other, and ended there ends it on both; a camera one process
// streams stays "online" while the other starts, and while the other's relay of it stops for want of viewers; a
// camera viewed through both is pulled once, by its owner, relayed to the other, and taken over when the owner dies.
// (The shared key's pace across processes: vision-shared-key.test.ts; the scoreboard's SSE on two servers:
// vision-scoreboard.test.ts; webhooks from two queues delivered once: cluster.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { signUpUser, type TestUser } from "../support/client";
import { watchCamera } from "../support/processes";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const PASSWORD = "two-process-camera";
let camera: FakeIpCamera;
let env: Record<string, string>;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  let databaseUrl: string;
  [camera, databaseUrl] = await Promise.all([startFakeIpCamera({ username: "admin", password: PASSWORD }), createOwnDatabase()]);
  env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "3",
    DATA_DIR: tempDir("two-processes"), // one deployment: the same secrets and blobs
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", // the fake camera's loopback address and random ports
    PTZ_ALLOWED_PORTS: "1024-65535",
    CAMERA_STREAM_IDLE_MS: "200",
  };
  // Its own process group each: stopping one after a failure takes its ffmpeg children too.
  one = await startApp(env, { detached: true });
  two = await startApp(env, { detached: true });
}, 90_000);

afterAll(async () => {
  for (const app of [one, two]) if (app && app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
  await camera?.close();
});

const me = (app: TestApp, user: TestUser) => fetch(`${app.url}/api/auth/me`, { headers: { cookie: user.client.cookieHeader } });

describe("two app processes on one database", () => {
  it("share sessions: signed in through one, known to the other; signed out through the other, gone on both", async () => {
    const user = await signUpUser({ baseUrl: one.url });
    const there = await me(two, user);
    expect(there.status).toBe(200);
    expect(await there.json()).toMatchObject({ username: user.username });
    const signOut = await fetch(`${two.url}/api/auth/logout`, { method: "POST", headers: { cookie: user.client.cookieHeader, origin: two.url } });
    expect(signOut.status).toBe(204);
    expect((await me(one, user)).status).toBe(401);
  });

  it("keep a camera 'online' that one streams while the other restarts, and while the other's own pull of it goes idle", async () => {
    const user = await signUpUser({ baseUrl: one.url });
    const added = await user.client.post("/api/cameras/ip", { name: "Gate", host: `127.0.0.1:${camera.ports.onvif}`, username: "admin", password: PASSWORD });
    expect(added.status).toBe(201);
    const { id: cameraId } = (await added.json()) as { id: string };
    const status = async (app: TestApp) => {
      const response = await fetch(`${app.url}/api/cameras/${cameraId}`, { headers: { cookie: user.client.cookieHeader } });
      return ((await response.json()) as { status: string }).status;
    };

    const viewer = watchCamera(one, user, cameraId);
    await viewer.online;
    await until(
      () => status(two),
      (s) => s === "online",
    );

    // A process starting up resets statuses a crash left behind — not this one, which the first process streams.
    expect(await two.stop()).toBe(0);
    two = await startApp(env, { detached: true });
    expect(await status(two)).toBe("online");

    // The second process relays the camera for a viewer of its own, who leaves: its idle stop is no news about the camera.
    const pulls = camera.sessions().length;
    const second = watchCamera(two, user, cameraId);
    await second.online;
    expect(camera.sessions().length).toBe(pulls);
    second.close();
    await until(
      async () => camera.sessions().length,
      (n) => n === pulls,
    );
    // Stopped, the second process has finished every status write it began.
    expect(await two.stop()).toBe(0);
    expect(await status(one)).toBe("online");

    // The last pull ending does set it offline.
    viewer.close();
    await until(
      () => status(one),
      (s) => s === "offline",
    );
  });

  it("pull a camera viewed through both once, in its owner; the other relays it and takes over when the owner is killed", async () => {
    two = await startApp(env, { detached: true });
    const user = await signUpUser({ baseUrl: one.url });
    const added = await user.client.post("/api/cameras/ip", { name: "Yard", host: `127.0.0.1:${camera.ports.onvif}`, username: "admin", password: PASSWORD });
    expect(added.status).toBe(201);
    const { id: cameraId } = (await added.json()) as { id: string };
    // A camera without a sub-stream or snapshot URL: its viewers watch the main stream, whose frames make its snapshots.
    const database = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await database`update cameras set sub_stream_url = null, snapshot_url = null where id = ${cameraId}`;
    await until(
      async () => camera.sessions().length,
      (n) => n === 0,
    );

    let first = watchCamera(one, user, cameraId);
    await first.online; // the first process owns the camera now

    // A snapshot asked of the other process is the owner's, made from the frames it holds: no second pull.
    const pulls = camera.sessionsStarted();
    const snapshot = await fetch(`${two.url}/api/cameras/${cameraId}/snapshot`, { headers: { cookie: user.client.cookieHeader } });
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers.get("content-type")).toBe("image/jpeg");
    expect(camera.sessionsStarted()).toBe(pulls);

    // Each process's relay answers only requests signed with the deployment's key.
    const relays = await database<{ url: string }[]>`select application_name as url from pg_stat_activity where datname = current_database() and application_name like 'http://%'`;
    await database.end();
    expect(relays).toHaveLength(2);
    for (const { url } of relays) {
      const path = `/cameras/${user.id}/${cameraId}/snapshot`;
      expect((await fetch(`${url}${path}`)).status).toBe(401);
      expect((await fetch(`${url}${path}`, { headers: { authorization: `FramewiseRelay ${Date.now() + 30_000}.${"A".repeat(43)}` } })).status).toBe(401);
    }

    let second = watchCamera(two, user, cameraId);
    await until(
      async () => second.received.fragments,
      (n) => n >= 3,
    );
    expect(camera.sessions().length).toBe(1);

    // Its login is saved again through the other process: the owner stops its pull too, and every viewer is told
    // to reconnect (1012) to what is stored now.
    const saved = await fetch(`${two.url}/api/cameras/${cameraId}/ip`, {
      method: "PUT",
      headers: { cookie: user.client.cookieHeader, origin: two.url, "content-type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(saved.status).toBe(200);
    expect(await first.closed).toBe(1012);
    expect(await second.closed).toBe(1012);
    first = watchCamera(one, user, cameraId);
    await first.online;
    second = watchCamera(two, user, cameraId);
    await until(
      async () => second.received.fragments,
      (n) => n >= 3,
    );
    expect(camera.sessions().length).toBe(1);

    // The owner dies without a word (its ffmpeg with it): its lock goes with its database connection.
    await one.signalGroup("SIGKILL");
    const before = { ...second.received };
    await until(
      async () => second.received,
      (now) => now.inits > before.inits && now.fragments >= before.fragments + 3,
    );
    await until(
      async () => camera.sessions().length,
      (n) => n === 1,
    );
    second.close();
  });
});
