// Monitors on local vision (issue 30), end to end: the production server as its own process, a fake IP camera playing
// real footage (one person walking in and crossing x = 0.75, a 17 s pass in a loop) and the fake Moondream, with no
// browser. A "person appears" monitor saves a full-resolution photo with Moondream's description within a pass and no
// more than one per minimum gap; a "crosses a line" monitor saves one per crossing; wrong settings are refused under
// their fields; and a local monitor never gets a tick job.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { signUpUser, type TestUser } from "../support/client";
import { PERSON_CROSSING, personCrossingClip } from "../support/real-data";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const PASSWORD = "s3cret-local-monitors";
const SHARED_KEY = "shared-local-monitors-key";
/** A pass of the clip, the pipeline's start, and a loaded 2-core machine. */
const PASS_MS = 90_000;
/** The fake camera's main stream is 1280 × 720 (the footage scaled); the watch decodes it 640 px wide. */
const FULL_WIDTH = 1280;

let camera: FakeIpCamera;
let moondream: FakeMoondream;
let sql: postgres.Sql;
let app: TestApp;
let user: TestUser;
let cameraId: string;
let lineId: string;

interface MonitorBody {
  id: string;
  kind: string;
  name: string;
  state: string;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastResult: { event?: string; photoId?: string | null; description?: string; skipped?: string } | null;
  lastError: string | null;
}

beforeAll(async () => {
  let databaseUrl: string;
  const clip = await personCrossingClip();
  [camera, moondream, databaseUrl] = await Promise.all([startFakeIpCamera({ username: "admin", password: PASSWORD, video: clip }), startFakeMoondream(), createOwnDatabase()]);
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  app = await startApp(
    {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: "4",
      DATA_DIR: tempDir("local-monitors"),
      MOONDREAM_ENDPOINT: moondream.url,
      MOONDREAM_API_KEY: SHARED_KEY,
      MOONDREAM_REQUESTS_PER_SECOND: "0",
      MOONDREAM_MAX_RETRIES: "0",
      LOCAL_VISION_DETECTOR_THREADS: "1",
      PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
      PTZ_ALLOWED_PORTS: "1024-65535",
    },
    { detached: true },
  );
  user = await signUpUser({ baseUrl: app.url });
  const added = await user.client.post("/api/cameras/ip", { name: "Meeting room", streamUrl: camera.rtspUrl("/1").replace("rtsp://", `rtsp://admin:${PASSWORD}@`) });
  expect(added.status).toBe(201);
  cameraId = ((await added.json()) as { id: string }).id;
  // The ground truth's line: x = 0.75, drawn bottom to top so walking left to right crosses it "in".
  const line = await user.client.post(`/api/cameras/${cameraId}/lines`, { name: "Way out", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] });
  expect(line.status).toBe(201);
  lineId = ((await line.json()) as { id: string }).id;
}, 180_000);

afterAll(async () => {
  if (app && app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
  await sql?.end();
  await Promise.all([camera?.close(), moondream?.close()]);
});

const create = (settings: Record<string, unknown>, id = cameraId) => user.client.post("/api/monitors", { kind: "local_capture", cameraId: id, settings });
const monitor = async (id: string) => (await (await user.client.get(`/api/monitors/${id}`)).json()) as MonitorBody;
const photosOf = (summary: string) =>
  sql<{ id: string; width: number; description: string | null; created_at: Date }[]>`
    SELECT id, width, description, created_at FROM photos WHERE user_id = ${user.id} AND detection_query = ${summary} ORDER BY created_at`;
const crossedIn = async () => Number((await sql`SELECT coalesce(sum(count), 0) AS n FROM vision_counts WHERE line_id = ${lineId} AND kind = 'in'`)[0]!.n);
const tickJobs = async (id: string) => Number((await sql`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${`monitor:${id}`}`)[0]!.n);

describe("monitors on local vision", () => {
  it("refuses a local monitor on an unwatched camera, an unknown class, and a missing or foreign line, each under its field", async () => {
    const unwatched = await create({ label: "person", trigger: "appears" });
    expect(unwatched.status).toBe(422);
    expect((await unwatched.json()).errors.cameraId[0]).toContain("Watch with local vision");

    expect((await user.client.put(`/api/cameras/${cameraId}/watch`, { enabled: true, labels: ["person"], fps: 5, width: 640 })).status).toBe(200);

    const unknownClass = await create({ label: "unicorn", trigger: "appears" });
    expect(unknownClass.status).toBe(422);
    expect((await unknownClass.json()).errors["settings.label"][0]).toContain('does not know "unicorn"');
    // The body's own shape is a 400, as for the other kinds' settings; what needs the database, a 422.
    const noLine = await create({ label: "person", trigger: "crosses" });
    expect(noLine.status).toBe(400);
    expect((await noLine.json()).errors["settings.regionId"]).toEqual(["Choose a line of this camera"]);
    // A zone's trigger given the camera's line: no zone of that id.
    const lineAsZone = await create({ label: "person", trigger: "enters", regionId: lineId });
    expect(lineAsZone.status).toBe(422);
    expect((await lineAsZone.json()).errors["settings.regionId"]).toEqual(["Choose a zone of this camera"]);
    // The line counts people only: a car crossing it is never an event.
    const wrongClass = await create({ label: "car", trigger: "crosses", regionId: lineId });
    expect(wrongClass.status).toBe(422);
    expect((await wrongClass.json()).errors["settings.regionId"][0]).toContain("counts person only");
    const badGap = await create({ label: "person", trigger: "appears", minGapSeconds: -1 });
    expect(badGap.status).toBe(400);
    expect((await badGap.json()).errors["settings.minGapSeconds"]).toEqual(["Minimum gap must be 0 or more"]);
    expect(Number((await sql`SELECT count(*) AS n FROM monitors`)[0]!.n)).toBe(0);
  });

  it("saves a full-resolution photo with Moondream's description when a person appears, one per gap; one per crossing; never a tick", async () => {
    moondream.script(
      SHARED_KEY,
      Array.from({ length: 20 }, () => "A person in a dark jacket walking to the right"),
    );
    const appears = await create({ label: "person", trigger: "appears", minGapSeconds: 3600, describePrompt: "Describe the person" });
    expect(appears.status).toBe(201);
    const appearsBody = (await appears.json()) as MonitorBody;
    expect(appearsBody).toMatchObject({ kind: "local_capture", name: "Capture on local vision: person appears on Meeting room", state: "running", nextRunAt: null });
    const crosses = await create({ label: "person", trigger: "crosses", regionId: lineId, minGapSeconds: 0 });
    expect(crosses.status).toBe(201);
    const crossesBody = (await crosses.json()) as MonitorBody;
    expect(crossesBody.name).toBe("Capture on local vision: person crosses Way out on Meeting room");

    // A pass: the person appears (one photo, described) and crosses the line (one photo).
    const appeared = await until(
      () => photosOf("person appeared"),
      (rows) => rows.length >= 1,
      PASS_MS,
    );
    expect(appeared[0]!.width).toBe(FULL_WIDTH);
    expect(appeared[0]!.description).toBe("A person in a dark jacket walking to the right");
    const described = moondream.calls.filter((call) => call.key === SHARED_KEY && call.path.endsWith("/query"));
    expect(described.length).toBeGreaterThanOrEqual(1);
    expect(described[0]!.body.question).toBe("Describe the person");
    await until(
      () => crossedIn(),
      (n) => n >= 1,
      PASS_MS,
    );
    const firstCrossing = await until(
      () => photosOf("Way out: person crossed in"),
      (rows) => rows.length >= 1,
      30_000,
    );
    expect(firstCrossing[0]!.width).toBe(FULL_WIDTH);
    expect(firstCrossing[0]!.description).toBeNull();
    const shown = await monitor(appearsBody.id);
    expect(shown.lastResult).toMatchObject({ event: "person appeared", photoId: appeared[0]!.id, description: "A person in a dark jacket walking to the right" });
    expect(shown.lastRunAt).not.toBeNull();

    // Two more passes: the person appears again (the gap refuses a second photo, and the monitor says so), and each
    // crossing saves its own photo.
    await until(
      () => crossedIn(),
      (n) => n >= 3,
      2 * PASS_MS,
    );
    await until(
      () => photosOf("Way out: person crossed in"),
      (rows) => rows.length >= 3,
      30_000,
    );
    const crossingPhotos = await photosOf("Way out: person crossed in");
    expect(crossingPhotos.length).toBe(await crossedIn());
    const times = crossingPhotos.map((p) => p.created_at.getTime());
    expect(Math.min(...times.slice(1).map((t, i) => t - times[i]!))).toBeGreaterThan(PERSON_CROSSING.durationS * 1000 * 0.6);
    expect(await photosOf("person appeared")).toHaveLength(1);
    const gapped = await until(
      () => monitor(appearsBody.id),
      (m) => m.lastResult?.skipped !== undefined,
      PASS_MS,
    );
    expect(gapped.lastResult).toMatchObject({ event: "person appeared", photoId: null, skipped: "within the 3600 s minimum gap" });
    expect(moondream.calls.filter((call) => call.key === SHARED_KEY && call.path.endsWith("/query"))).toHaveLength(1);

    // Never a tick: no job now, none after the takeover sweeps (every 5 s) and the minute's sweep would have booked one.
    expect(await tickJobs(appearsBody.id)).toBe(0);
    expect(await tickJobs(crossesBody.id)).toBe(0);
    // A tick job runs and is gone within moments: the sweep's own line says whether it ever booked one.
    expect(app.logs.filter((line) => line.includes("monitors given their tick again"))).toEqual([]);
    const row = (await sql`SELECT next_run_at, lease_until FROM monitors WHERE id = ${appearsBody.id}`)[0]!;
    expect(row).toMatchObject({ next_run_at: null, lease_until: null });
  }, 420_000);

  it("stops saving while paused and goes on when resumed, still with no tick job", async () => {
    const [row] = await sql<{ id: string }[]>`SELECT id FROM monitors WHERE settings->>'trigger' = 'crosses'`;
    const id = row!.id;
    expect((await user.client.post(`/api/monitors/${id}/pause`, {})).status).toBe(200);
    const before = (await photosOf("Way out: person crossed in")).length;
    const counted = await crossedIn();
    await until(
      () => crossedIn(),
      (n) => n >= counted + 1,
      PASS_MS,
    );
    // The save is claimed in SQL only while the monitor runs: even before the pipeline reads it again, no photo.
    const paused = (await photosOf("Way out: person crossed in")).length;
    expect(paused).toBe(before);
    const resumed = await user.client.post(`/api/monitors/${id}/resume`, {});
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as MonitorBody).nextRunAt).toBeNull();
    await until(
      () => photosOf("Way out: person crossed in"),
      (rows) => rows.length >= paused + 1,
      2 * PASS_MS,
    );
    expect(await tickJobs(id)).toBe(0);
  }, 300_000);
});
