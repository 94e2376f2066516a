// One owner per IP camera across two app processes (docs/decisions/0008-camera-owner.md), beyond the basics in
// two-processes.test.ts: a camera changed or deleted through the process that does not own it, the relay's
// refusals, and a monitor on a camera viewed through both processes, which keeps running when the owner is killed
// with the camera never pulled twice at once (and a camera nobody takes over is not shown online). One database and one pair of processes for the file; the test that
// kills a process comes last.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { signUpUser, type TestUser } from "../support/client";
import { watchCamera } from "../support/processes";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const PASSWORD = "camera-owner";
const SHARED_KEY = "camera-owner-shared-key";
let cameras: FakeIpCamera[];
let moondream: FakeMoondream;
let sql: postgres.Sql;
let one: TestApp;
let two: TestApp;
/** Each process's relay address, by its port (given, so the test knows which process owns a camera). */
const relayOf = new Map<TestApp, string>();

beforeAll(async () => {
  let databaseUrl: string;
  [cameras, moondream, databaseUrl] = await Promise.all([
    Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => startFakeIpCamera({ username: "admin", password: PASSWORD }))),
    startFakeMoondream(),
    createOwnDatabase(),
  ]);
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  // The test signs relay requests as the deployment's processes do: it knows their shared secret.
  process.env.SESSION_SECRET = randomBytes(32).toString("base64url");
  process.env.ENCRYPTION_KEY = randomBytes(32).toString("base64");
  process.env.LOG_LEVEL = "silent";
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "3",
    DATA_DIR: tempDir("camera-owner"),
    SESSION_SECRET: process.env.SESSION_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", // the fake cameras' loopback address and random ports
    PTZ_ALLOWED_PORTS: "1024-65535",
    CAMERA_STREAM_IDLE_MS: "200",
    MOONDREAM_ENDPOINT: moondream.url,
    MOONDREAM_API_KEY: SHARED_KEY,
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0",
  };
  // Their own process group each: killing one takes its ffmpeg children too, as a crash of its machine would.
  const ports = [await freePort(), await freePort()] as const;
  const start = (port: number) => startApp({ ...env, CAMERA_RELAY_PORT: String(port) }, { detached: true });
  [one, two] = await Promise.all([start(ports[0]), start(ports[1])]);
  relayOf.set(one, `http://127.0.0.1:${ports[0]}`).set(two, `http://127.0.0.1:${ports[1]}`);
}, 90_000);

afterAll(async () => {
  for (const app of [one, two]) if (app && app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
  await sql?.end();
  await Promise.all([...(cameras ?? []).map((camera) => camera.close()), moondream?.close()]);
});

/** A request as the studio makes it through `app` (its session cookie, and the origin the CSRF check wants). */
function through(app: TestApp, user: TestUser, method: string, path: string, json?: unknown) {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { cookie: user.client.cookieHeader, origin: app.url, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

/** The camera's main stream (no sub-stream, no snapshot URL: viewers and snapshots share one pull), login in the URL. */
const streamUrl = (camera: FakeIpCamera) => camera.rtspUrl("/1").replace("rtsp://", `rtsp://admin:${PASSWORD}@`);

async function addCamera(user: TestUser, camera: FakeIpCamera, name: string): Promise<string> {
  const added = await through(one, user, "POST", "/api/cameras/ip", { name, streamUrl: streamUrl(camera) });
  expect(added.status).toBe(201);
  return ((await added.json()) as { id: string }).id;
}

/**
 * The relay address of the process holding the camera's owner lock (what presence.ts reads), and the other one's.
 * Only this file's database: other test files' app processes share the PostgreSQL server.
 */
async function relays(cameraId: string, processes = 2): Promise<{ owner: string; other: string }> {
  const rows = await sql<{ url: string; owner: boolean }[]>`
    select a.application_name as url, exists (
      select 1 from pg_locks l where l.pid = a.pid and l.locktype = 'advisory' and l.classid = ${0x4657_0002}::oid
        and l.objid = hashtext(${cameraId}::text)::oid and l.granted and l.mode = 'ExclusiveLock') as owner
    from pg_stat_activity a where a.datname = current_database() and a.application_name like 'http://%'`;
  expect(rows).toHaveLength(processes);
  return { owner: rows.find((r) => r.owner)!.url, other: rows.find((r) => !r.owner)?.url ?? "" };
}

const framesAfter = (view: ReturnType<typeof watchCamera>, count: number) =>
  until(
    async () => view.received.fragments,
    (n) => n >= count,
  );

describe("a camera owned by one process, changed through the other", () => {
  it("closes every viewer with 1012; they reconnect to the new address, and the old one is not pulled any more", async () => {
    const [first, second] = cameras;
    const user = await signUpUser({ baseUrl: one.url });
    const cameraId = await addCamera(user, first!, "Porch");

    const viewers = [watchCamera(one, user, cameraId)];
    await viewers[0]!.online; // the first process owns the camera
    viewers.push(watchCamera(two, user, cameraId));
    await framesAfter(viewers[1]!, 3);
    expect(first!.sessions()).toHaveLength(1);

    const moved = await through(two, user, "PUT", `/api/cameras/${cameraId}/ip`, { streamUrl: streamUrl(second!) });
    expect(moved.status).toBe(200);
    expect(await Promise.all(viewers.map((viewer) => viewer.closed))).toEqual([1012, 1012]);
    await until(
      async () => first!.sessions().length,
      (n) => n === 0,
    );

    const again = [watchCamera(one, user, cameraId)];
    await again[0]!.online;
    again.push(watchCamera(two, user, cameraId));
    await framesAfter(again[1]!, 3);
    expect(second!.sessions()).toHaveLength(1);
    expect(first!.sessions()).toHaveLength(0);

    // Deleted through the process that does not own it: both viewers are told, and nothing pulls the camera.
    expect((await through(two, user, "DELETE", `/api/cameras/${cameraId}`)).status).toBe(204);
    expect(await Promise.all(again.map((viewer) => viewer.closed))).toEqual([1012, 1012]);
    await until(
      async () => second!.sessions().length,
      (n) => n === 0,
    );
  }, 60_000);
});

describe("the relay", () => {
  it("serves only the camera's owner, its user, and requests signed with the deployment's key that have not expired", async () => {
    const { relayPath, signRelayRequest, CLOSE_NOT_OWNER } = await import("#server/cameras/stream/relay");
    const user = await signUpUser({ baseUrl: one.url });
    const stranger = await signUpUser({ baseUrl: one.url });
    const cameraId = await addCamera(user, cameras[2]!, "Shed");
    const viewer = watchCamera(one, user, cameraId);
    await viewer.online;
    const { owner, other } = await relays(cameraId);

    /** Opens a relay: the HTTP status of a refused upgrade, or the first message's kind and the close code. */
    const open = (relayUrl: string, userId: string, authorization?: string) =>
      new Promise<{ status?: number; first?: string; code?: number }>((resolve) => {
        const ws = new WebSocket(`${relayUrl.replace(/^http/, "ws")}${relayPath(userId, cameraId)}`, { headers: authorization ? { authorization } : {} });
        let first: string | undefined;
        ws.on("unexpected-response", (_, response) => resolve({ status: response.statusCode }));
        ws.on("error", () => {});
        ws.once("message", (data: Buffer, isBinary) => {
          first = isBinary ? "binary" : (JSON.parse(data.toString()) as { type: string }).type;
          ws.close();
        });
        ws.once("close", (code) => resolve({ first, code }));
      });
    const path = relayPath(user.id, cameraId);

    expect(await open(owner, user.id)).toEqual({ status: 401 });
    expect(await open(owner, user.id, signRelayRequest(path, Date.now() - 61_000))).toEqual({ status: 401 });
    expect(await open(owner, user.id, signRelayRequest(relayPath(user.id, cameraId, "snapshot")))).toEqual({ status: 401 });
    // Signed right, but for a user the camera is not theirs, or asked of the process that does not own it.
    expect(await open(owner, stranger.id, signRelayRequest(relayPath(stranger.id, cameraId)))).toMatchObject({ code: 4404 });
    expect(await open(other, user.id, signRelayRequest(path))).toMatchObject({ code: CLOSE_NOT_OWNER });
    expect(await open(owner, user.id, signRelayRequest(path))).toMatchObject({ first: "status" });
    expect(cameras[2]!.sessions()).toHaveLength(1);
    viewer.close();
  }, 60_000);
});

describe("a change the owner did not hear of", () => {
  it("is found once its LISTEN connection is back: the owner's viewers get 1012 and the old address is let go", async () => {
    const [first, second] = [cameras[5]!, cameras[6]!];
    const user = await signUpUser({ baseUrl: one.url });
    const cameraId = await addCamera(user, first, "Drive");
    const owners = watchCamera(one, user, cameraId);
    await owners.online; // the first process owns the camera
    const relayed = watchCamera(two, user, cameraId);
    await framesAfter(relayed, 3);
    let code: number | undefined;
    void owners.closed.then((closed) => (code = closed));

    // The owner is paused while its LISTEN connection is cut and the camera moves: the notification never reaches it.
    const pid = one.process.pid!;
    process.kill(pid, "SIGSTOP");
    try {
      const cut = await sql<{ ok: boolean }[]>`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${`framewise-listen-${pid}`}`;
      expect(cut).toEqual([{ ok: true }]);
      const moved = await through(two, user, "PUT", `/api/cameras/${cameraId}/ip`, { streamUrl: streamUrl(second) });
      expect(moved.status).toBe(200);
      expect(await relayed.closed).toBe(1012);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await until(
      async () => code,
      (closed) => closed === 1012,
      20_000,
    );
    await until(
      async () => first.sessions().length,
      (n) => n === 0,
    );
    const again = watchCamera(one, user, cameraId);
    await again.online;
    expect(second.sessions()).toHaveLength(1);
    again.close();
  }, 60_000);
});

describe("a monitor on a camera viewed through both processes", () => {
  it("gets its frames from the one pull, follows the camera to a new address, and keeps running when the owner is killed", async () => {
    const [first, second] = [cameras[3]!, cameras[4]!];
    const user = await signUpUser({ baseUrl: one.url });
    const cameraId = await addCamera(user, first, "Gate");
    const calls = () => moondream.calls.filter((call) => call.key === SHARED_KEY).length;
    const monitor = async () => (await sql<{ state: string; failures: number }[]>`select state, failures from monitors where camera_id = ${cameraId}`)[0]!;

    const owners = watchCamera(one, user, cameraId);
    await owners.online; // the first process owns the camera
    const created = await through(two, user, "POST", "/api/monitors", { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 0 } });
    expect(created.status).toBe(201);
    const relayed = watchCamera(two, user, cameraId);
    await framesAfter(relayed, 3);
    // Its ticks (whichever process's queue runs them) send the AI the pictures of the one pull.
    const before = calls();
    await until(
      async () => calls(),
      (n) => n >= before + 2,
    );
    expect(first.sessions()).toHaveLength(1);
    expect(first.sessionsStarted()).toBe(1);

    // The camera moves: the viewers reconnect, and the monitor's hold pulls the new address, not the old one.
    const moved = await through(two, user, "PUT", `/api/cameras/${cameraId}/ip`, { streamUrl: streamUrl(second) });
    expect(moved.status).toBe(200);
    expect(await Promise.all([owners.closed, relayed.closed])).toEqual([1012, 1012]);
    const startedBefore = second.sessionsStarted();
    const movedCalls = calls();
    await until(
      async () => calls(),
      (n) => n >= movedCalls + 4,
    );
    // At most one frame grabbed on its own (the first tick after the change), then the hold's pull serves them all.
    expect(second.sessionsStarted() - startedBefore).toBeLessThanOrEqual(2);
    expect(second.sessions()).toHaveLength(1);
    expect(first.sessions()).toHaveLength(0);

    const views = [watchCamera(one, user, cameraId), watchCamera(two, user, cameraId)];
    await Promise.all(views.map((view) => framesAfter(view, 3)));
    // The owner now is the process whose queue ran the first tick after the change (its hold pulled first).
    const { owner } = await relays(cameraId);
    const [dying, survivor] = relayOf.get(one) === owner ? [one, two] : [two, one];
    const viewer = views[dying === one ? 1 : 0]!;
    // Another camera, watched only through the process that will die: nobody is left to take it over.
    const spareId = await addCamera(user, cameras[7]!, "Spare");
    const spare = watchCamera(dying, user, spareId);
    await spare.online;
    const shown = async (id: string) => (await (await through(survivor, user, "GET", `/api/cameras/${id}`)).json()) as { status: string; statusReason: string | null };
    await until(
      () => shown(spareId),
      (camera) => camera.status === "online",
    );

    // Killed between two ticks: none running, the next one booked (a process killed mid-tick: monitors-takeover.test.ts).
    const betweenTicks = async () =>
      (
        await sql<{ between: boolean }[]>`select m.lease_until is null and exists (select 1 from graphile_worker.jobs j
          where j.key = 'monitor:' || m.id::text and j.locked_at is null) as between from monitors m where m.camera_id = ${cameraId}`
      )[0]!.between;
    await until(betweenTicks, (between) => between);
    second.resetPeakSessions();
    const seen = { ...viewer.received };
    const killedCalls = calls();
    await dying.signalGroup("SIGKILL");
    // A picture asked for while the survivor takes over is one of its new pull, not a pull of its own beside it.
    const snapshot = await through(survivor, user, "GET", `/api/cameras/${cameraId}/snapshot`);
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers.get("content-type")).toBe("image/jpeg");

    // The survivor takes the camera over: its viewer gets a new pull's frames, the monitor keeps ticking.
    await until(
      async () => viewer.received,
      (now) => now.inits > seen.inits && now.fragments >= seen.fragments + 3,
    );
    await until(
      async () => calls(),
      (n) => n >= killedCalls + 3,
    );
    expect(await monitor()).toMatchObject({ state: "running", failures: 0 });
    expect(second.sessions()).toHaveLength(1);
    expect(second.peakSessions()).toBe(1);
    expect((await relays(cameraId, 1)).owner).toBe(relayOf.get(survivor));
    // The spare camera's "online" died with its process: it is shown as an idle stop leaves it.
    await until(
      () => shown(spareId),
      (camera) => camera.status === "offline",
      10_000,
    );
    expect(await shown(spareId)).toEqual(expect.objectContaining({ status: "offline", statusReason: null }));
    expect(await shown(cameraId)).toMatchObject({ status: "online" });
    viewer.close();
  }, 120_000);
});
