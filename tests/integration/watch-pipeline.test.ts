// "Watch with local vision" end to end (issue 30): the production server, as its own processes, counts a real person
// crossing a line on a fake IP camera playing real footage (../shared/data/real, one crossing per 17 s pass), with no
// browser anywhere: the crossing is counted, its line.crossed webhook delivered, counting goes on across a restart,
// and two app processes count each crossing once, the survivor taking the camera over when the other is killed.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { Client, signUpUser, type TestUser } from "../support/client";
import { PERSON_CROSSING, personCrossingClip } from "../support/real-data";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, until, type Receiver, type Received } from "../support/webhook-receiver";

const PASSWORD = "s3cret-watch";
const METRICS_TOKEN = "metrics-token-for-the-test";
/** How long a crossing may take to arrive: a pass of the clip, the pipeline's start, and a loaded 2-core machine. */
const CROSSING_MS = 90_000;

let camera: FakeIpCamera;
let receiver: Receiver;
let env: Record<string, string>;
let sql: postgres.Sql;
const apps: TestApp[] = [];

beforeAll(async () => {
  let databaseUrl: string;
  const clip = await personCrossingClip();
  [camera, receiver, databaseUrl] = await Promise.all([startFakeIpCamera({ username: "admin", password: PASSWORD, video: clip }), startReceiver(), createOwnDatabase()]);
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: tempDir("watch-pipeline"),
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8",
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    METRICS_TOKEN,
    LOCAL_VISION_DETECTOR_THREADS: "1",
  };
}, 120_000);

afterAll(async () => {
  for (const app of apps) if (app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
  await sql?.end();
  await Promise.all([camera?.close(), receiver?.close()]);
});

async function start(): Promise<TestApp> {
  // Its own process group: killing it takes its ffmpeg children too.
  const app = await startApp(env, { detached: true });
  apps.push(app);
  return app;
}

/**
 * The camera's crossings the receiver accepted, once per webhook-id: delivery is at least once, and a process killed
 * between a receiver's 2xx and its batch's commit leaves that delivery to be sent again by the survivor with the same
 * id (server/webhooks/dispatcher.ts), which a Standard Webhooks receiver drops as already seen.
 */
function crossings(cameraId: string): Received[] {
  const seen = new Set<string>();
  return receiver.accepted().filter((d) => d.payload.type === "line.crossed" && d.payload.data.cameraId === cameraId && !seen.has(d.id) && seen.add(d.id));
}
const countedIn = async (lineId: string) => Number((await sql`SELECT coalesce(sum(count), 0) AS n FROM vision_counts WHERE line_id = ${lineId} AND kind = 'in'`)[0]!.n);
const countedOut = async (lineId: string) => Number((await sql`SELECT coalesce(sum(count), 0) AS n FROM vision_counts WHERE line_id = ${lineId} AND kind = 'out'`)[0]!.n);
const runsOn = (app: TestApp) => app.logs.filter((line) => line.includes("local-vision pipeline started")).length;

/** Signs in again on another process of the deployment. */
async function signIn(app: TestApp, user: TestUser): Promise<Client> {
  const client = new Client(app.url);
  expect((await client.post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(200);
  return client;
}

describe("the server watches an IP camera with local vision", () => {
  let user: TestUser;
  let cameraId: string;
  let lineId: string;

  it("counts a real person crossing a line with no browser, delivers line.crossed, reports its figures, and goes on after a restart", async () => {
    const app = await start();
    user = await signUpUser({ baseUrl: app.url });
    const added = await user.client.post("/api/cameras/ip", { name: "Meeting room", streamUrl: camera.rtspUrl("/1").replace("rtsp://", `rtsp://admin:${PASSWORD}@`) });
    expect(added.status).toBe(201);
    cameraId = ((await added.json()) as { id: string }).id;
    // The ground truth's line: x = 0.75, drawn bottom to top so walking left to right crosses it "in".
    const line = await user.client.post(`/api/cameras/${cameraId}/lines`, { name: "Way out", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] });
    expect(line.status).toBe(201);
    lineId = ((await line.json()) as { id: string }).id;
    expect((await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "detailed" })).status).toBe(200);
    // Signed deliveries only: one the receiver cannot verify is refused (401), never counted as delivered.
    receiver.secret = ((await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;

    const watched = await user.client.put(`/api/cameras/${cameraId}/watch`, { enabled: true, labels: ["person"], fps: 5, width: 640 });
    expect(watched.status).toBe(200);
    expect(await watched.json()).toMatchObject({ enabled: true, labels: ["person"], fps: 5, width: 640 });

    await receiver.waitFor(() => crossings(cameraId).length >= 1, CROSSING_MS);
    const [first] = crossings(cameraId);
    expect(first!.payload.data).toMatchObject({ cameraId, lineId, direction: "in", label: "person" });
    expect(await countedIn(lineId)).toBeGreaterThanOrEqual(1);

    // The card's figures and /metrics, from the process running it.
    const watch = await until(
      async () => (await (await user.client.get(`/api/cameras/${cameraId}/watch`)).json()) as { status: string; stats: { decodeFps: number; detectFps: number } | null },
      (w) => w.status === "running" && (w.stats?.decodeFps ?? 0) > 0,
      20_000,
    );
    expect(watch.stats!.detectFps).toBeGreaterThan(0);
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain(`framewise_pipeline_up{camera_id="${cameraId}",camera="Meeting room"} 1`);
    expect(text).toMatch(new RegExp(`framewise_pipeline_decode_fps\\{camera_id="${cameraId}",camera="Meeting room"\\} [1-9]`));

    // A restart: the next process picks the camera up by itself and counts the next pass's crossing.
    expect(await app.stop()).toBe(0);
    const before = crossings(cameraId).length;
    await start(); // the next test goes on with it
    await receiver.waitFor(() => crossings(cameraId).length >= before + 1, CROSSING_MS);
    expect(await countedOut(lineId)).toBe(0); // nobody ever walks back across it
  }, 300_000);

  it("runs each camera once across two processes, counting each crossing once, and moves to the survivor when its process is killed", async () => {
    const [first] = apps.filter((app) => app.process.exitCode === null && app.process.signalCode === null);
    const second = await start();
    await signIn(second, user); // the second process serves the same users
    const before = crossings(cameraId).length;
    await receiver.waitFor(() => crossings(cameraId).length >= before + 2, 2 * CROSSING_MS);
    // One pipeline, one RTSP session: the second process never took the camera the first runs.
    expect(runsOn(second)).toBe(0);
    expect(camera.sessions().filter((s) => s.playing)).toHaveLength(1);

    await first!.signalGroup("SIGKILL");
    const afterKill = crossings(cameraId).length;
    await receiver.waitFor(() => crossings(cameraId).length >= afterKill + 1, CROSSING_MS);
    expect(runsOn(second)).toBeGreaterThanOrEqual(1);

    // Each pass crossed once: consecutive crossings are a pass apart, never the same crossing twice.
    const times = crossings(cameraId)
      .map((d) => Date.parse(String(d.payload.data.at)))
      .sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps), `crossings at ${times.map((t) => new Date(t).toISOString()).join(", ")}`).toBeGreaterThan(PERSON_CROSSING.durationS * 1000 * 0.6);
    // Every crossing counted is delivered once, and nothing else (a crossing just counted is delivered within moments).
    await until(
      async () => (await countedIn(lineId)) - crossings(cameraId).length,
      (difference) => difference === 0,
      15_000,
    );
  }, 400_000);
});
