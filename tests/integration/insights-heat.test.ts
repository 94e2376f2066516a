// Where people go (issue 31): the heat grid of a camera kept per UTC hour. The studio's batches carry it (added in
// the batch's transaction, refused whole when bad), GET /api/cameras/{id}/heatmap sums it over a period for the owner
// only, and the server's own pipeline writes it for a real person walking past a fake IP camera (no browser).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { HEAT_CELLS, HEAT_COLS, HEAT_ROWS } from "#app/studio/local-vision/heat-grid";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import { personCrossingClip } from "../support/real-data";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const HOUR_MS = 3_600_000;
const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: { origin: user.client.baseUrl } });

async function userWithCamera(): Promise<TestUser & { cameraId: string }> {
  const user = await signUpUser();
  const camera = await send(user, "POST", "/api/cameras", { name: "Lobby", thumbnail: await jpegDataUrl(64, 36) });
  expect(camera.status).toBe(201);
  return { ...user, cameraId: ((await camera.json()) as { id: string }).id };
}

/** A grid with the given cells set: `{ 5: [walk, stay] }`. */
function grid(hour: number, cells: Record<number, [number, number]>) {
  const walk = new Array<number>(HEAT_CELLS).fill(0);
  const stay = new Array<number>(HEAT_CELLS).fill(0);
  for (const [cell, [w, s]] of Object.entries(cells)) {
    walk[Number(cell)] = w;
    stay[Number(cell)] = s;
  }
  return { hour, cols: HEAT_COLS, rows: HEAT_ROWS, walk, stay };
}

interface Heatmap {
  cols: number;
  rows: number;
  walk: number[];
  stay: number[];
  from: string;
  to: string;
  hours: number;
}
const heatmap = async (user: TestUser & { cameraId: string }, query = "") => {
  const response = await send(user, "GET", `/api/cameras/${user.cameraId}/heatmap${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Heatmap;
};
const nonZero = (values: readonly number[]) => Object.fromEntries(values.flatMap((v, i) => (v !== 0 ? [[i, v]] : [])));
const heatRows = (cameraId: string) => sql<{ hour: Date; walk: number[]; stay: number[] }[]>`SELECT hour, walk, stay FROM vision_heat WHERE camera_id = ${cameraId} ORDER BY hour`;

/** The start of the hour `n` hours before this one. */
const hoursAgo = (n: number) => Math.floor(Date.now() / HOUR_MS) * HOUR_MS - n * HOUR_MS;

describe("heat from the studio's batches", () => {
  it("adds a batch's grid to its hour, sums two batches cell by cell, and counts a resent batch once", async () => {
    const user = await userWithCamera();
    const hour = hoursAgo(2);
    const first = await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, {
      batchId: crypto.randomUUID(),
      events: [],
      heat: grid(hour, { 5: [2, 1.5], 100: [1, 0.25] }),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 0, ignored: 0, duplicate: false });

    // With an event, in the same transaction as its count.
    const zone = await send(user, "POST", `/api/cameras/${user.cameraId}/zones`, {
      name: "Till",
      polygon: [
        { x: 0.1, y: 0.1 },
        { x: 0.9, y: 0.1 },
        { x: 0.5, y: 0.9 },
      ],
    });
    const zoneId = ((await zone.json()) as { id: string }).id;
    const batchId = crypto.randomUUID();
    const second = {
      batchId,
      events: [{ type: "zone.entered", zoneId, trackId: 1, label: "person", at: hour + 60_000, box: { x: 0.4, y: 0.3, w: 0.1, h: 0.3 } }],
      heat: grid(hour, { 5: [3, 2.25], 575: [1, 0.5] }),
    };
    expect((await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, second)).status).toBe(200);
    // The same batch again (its answer was lost): nothing added twice.
    expect(await (await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, second)).json()).toMatchObject({ duplicate: true });

    const rows = await heatRows(user.cameraId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hour.getTime()).toBe(hour);
    expect(nonZero(rows[0]!.walk)).toEqual({ 5: 5, 100: 1, 575: 1 });
    expect(nonZero(rows[0]!.stay)).toEqual({ 5: 3.75, 100: 0.25, 575: 0.5 });
    // Its day holds the same sums (long periods read the days).
    const days = await sql<{ day: Date; walk: number[] }[]>`SELECT day, walk FROM vision_heat_days WHERE camera_id = ${user.cameraId}`;
    expect(days.map((d) => d.day.getTime())).toEqual([Math.floor(hour / (24 * HOUR_MS)) * 24 * HOUR_MS]);
    expect(nonZero(days[0]!.walk)).toEqual({ 5: 5, 100: 1, 575: 1 });
  });

  it("sums the hours of the period for the owner, leaving out the hours outside it", async () => {
    const user = await userWithCamera();
    const other = await userWithCamera();
    const recent = hoursAgo(3);
    const earlier = hoursAgo(20);
    for (const heat of [grid(recent, { 0: [1, 10] }), grid(earlier, { 0: [2, 5], 31: [4, 1] })])
      expect((await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, { events: [], heat })).status).toBe(200);
    // Older than a batch may send: written as the server's pipeline would have, 10 days ago (its hour and its day).
    const old = hoursAgo(240);
    for (const [table, column, time] of [
      ["vision_heat", "hour", old],
      ["vision_heat_days", "day", Math.floor(old / (24 * HOUR_MS)) * 24 * HOUR_MS],
    ] as const)
      await sql`INSERT INTO ${sql(table)} (user_id, camera_id, ${sql(column)}, cols, rows, walk, stay)
        SELECT user_id, id, ${new Date(time)}, ${HEAT_COLS}, ${HEAT_ROWS}, array_fill(7, ARRAY[${HEAT_CELLS}::int]), array_fill(1::real, ARRAY[${HEAT_CELLS}::int]) FROM cameras WHERE id = ${user.cameraId}`;
    // Another user's heat on their own camera never shows in this one's.
    expect((await send(other, "POST", `/api/cameras/${other.cameraId}/vision-events`, { events: [], heat: grid(recent, { 0: [100, 100] }) })).status).toBe(200);

    // Default: the last 7 days.
    const week = await heatmap(user);
    expect(week).toMatchObject({ cols: HEAT_COLS, rows: HEAT_ROWS, hours: 2 });
    expect(week.walk).toHaveLength(HEAT_CELLS);
    expect(nonZero(week.walk)).toEqual({ 0: 3, 31: 4 });
    expect(nonZero(week.stay)).toEqual({ 0: 15, 31: 1 });
    expect(Date.parse(week.to) - Date.parse(week.from)).toBe(7 * 24 * HOUR_MS);

    // One hour: the other is out of range (an hour counts when it overlaps the period, from the hour `from` falls in).
    const one = await heatmap(user, `?from=${new Date(recent + 30 * 60_000).toISOString()}&to=${new Date(recent + HOUR_MS).toISOString()}`);
    expect(one.hours).toBe(1);
    expect(nonZero(one.walk)).toEqual({ 0: 1 });
    // Up to `to`, exclusive: the earlier hour alone.
    const before = await heatmap(user, `?from=${new Date(earlier).toISOString()}&to=${new Date(recent).toISOString()}`);
    expect(nonZero(before.walk)).toEqual({ 0: 2, 31: 4 });
    // Eleven days reach the old hour.
    const longer = await heatmap(user, `?from=${new Date(hoursAgo(11 * 24)).toISOString()}`);
    expect(longer.hours).toBe(3);
    expect(longer.walk[0]).toBe(10);
    expect(longer.walk[1]).toBe(7);
    // A period with nothing: every cell 0.
    const empty = await heatmap(user, `?from=${new Date(hoursAgo(100)).toISOString()}&to=${new Date(hoursAgo(99)).toISOString()}`);
    expect(empty).toMatchObject({ hours: 0 });
    expect(nonZero(empty.walk)).toEqual({});

    // Another user's camera is not found, whichever way it is asked.
    expect((await send(other, "GET", `/api/cameras/${user.cameraId}/heatmap`)).status).toBe(404);
    expect((await send(other, "POST", `/api/cameras/${user.cameraId}/vision-events`, { events: [], heat: grid(recent, { 1: [1, 1] }) })).status).toBe(404);
    expect(nonZero((await heatRows(user.cameraId)).find((row) => row.hour.getTime() === recent)!.walk)).toEqual({ 0: 1 });
  });

  it("adds whole days from the days' rows and the hours at the period's ends from the hours', each hour once", async () => {
    const user = await userWithCamera();
    await useSharedDatabase();
    const { db } = await import("#db/index");
    const { addHeat } = await import("#server/local-vision/heat-queries");
    const userId = ((await sql`SELECT user_id FROM cameras WHERE id = ${user.cameraId}`)[0] as { user_id: string }).user_id;
    const at = (iso: string) => Date.parse(iso);
    // One pass in a cell of its own for each hour written, so the sum says exactly which hours were counted.
    const written = ["2026-03-01T09:00Z", "2026-03-01T10:00Z", "2026-03-01T23:00Z", "2026-03-02T00:00Z", "2026-03-02T13:00Z", "2026-03-03T04:00Z", "2026-03-03T05:00Z"];
    for (const [index, iso] of written.entries()) {
      const heat = grid(at(iso), { [index]: [1, 1] });
      await addHeat(db(), userId, user.cameraId, { ...heat, hour: new Date(heat.hour) });
    }
    const cellsOf = (map: Heatmap) => Object.keys(nonZero(map.walk)).map(Number);
    // From 10:30 on the 1st (its hour counts) to 05:00 on the 3rd (exclusive): every hour but the first and the last.
    const across = await heatmap(user, `?from=2026-03-01T10:30:00Z&to=2026-03-03T05:00:00Z`);
    expect(cellsOf(across)).toEqual([1, 2, 3, 4, 5]);
    expect(across.hours).toBe(5);
    // Whole days only, and within one day.
    expect(cellsOf(await heatmap(user, `?from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z`))).toEqual([0, 1, 2, 3, 4]);
    expect(cellsOf(await heatmap(user, `?from=2026-03-02T00:00:00Z&to=2026-03-02T13:00:00Z`))).toEqual([3]);
    expect(cellsOf(await heatmap(user, `?from=2026-03-01T23:59:00Z&to=2026-03-04T00:00:00Z`))).toEqual([2, 3, 4, 5, 6]);
  });

  it("refuses a bad period with a problem under its field", async () => {
    const user = await userWithCamera();
    const problem = async (query: string) => {
      const response = await send(user, "GET", `/api/cameras/${user.cameraId}/heatmap${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      return ((await response.json()) as { errors: Record<string, string[]> }).errors;
    };
    expect(await problem("?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z")).toEqual({ from: ["must be before to"] });
    expect(await problem("?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z")).toEqual({ from: ["at most 366 days before to"] });
    expect(Object.keys(await problem("?from=yesterday"))).toEqual(["from"]);
  });

  it("refuses a bad grid whole, with the problem under its field, writing nothing of the batch", async () => {
    const user = await userWithCamera();
    const zone = await send(user, "POST", `/api/cameras/${user.cameraId}/zones`, {
      name: "Door",
      polygon: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
      ],
    });
    const zoneId = ((await zone.json()) as { id: string }).id;
    const hour = hoursAgo(1);
    const event = { type: "zone.entered", zoneId, trackId: 7, label: "person", at: Date.now() - 1000, box: { x: 0.4, y: 0.3, w: 0.1, h: 0.3 } };
    const good = grid(hour, { 3: [1, 1] });
    const errorsOf = async (heat: unknown) => {
      const response = await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, { events: [event], heat });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      return ((await response.json()) as { errors: Record<string, string[]> }).errors;
    };
    expect(await errorsOf({ ...good, walk: good.walk.slice(1) })).toEqual({ "heat.walk": [`walk must have ${HEAT_CELLS} cells`] });
    expect(await errorsOf({ ...good, stay: [...good.stay, 0] })).toEqual({ "heat.stay": [`stay must have ${HEAT_CELLS} cells`] });
    expect(await errorsOf({ ...good, walk: good.walk.map((v, i) => (i === 9 ? -1 : v)) })).toEqual({ "heat.walk.9": ["a cell's walk cannot be negative"] });
    expect(await errorsOf({ ...good, stay: good.stay.map((v, i) => (i === 4 ? -0.5 : v)) })).toEqual({ "heat.stay.4": ["a cell's stay cannot be negative"] });
    expect(await errorsOf({ ...good, walk: good.walk.map((v, i) => (i === 2 ? 1e9 : v)) })).toEqual({ "heat.walk.2": ["a cell's walk must be at most 1000000"] });
    expect(await errorsOf({ ...good, stay: good.stay.map((v, i) => (i === 2 ? 1e12 : v)) })).toEqual({ "heat.stay.2": ["a cell's stay must be at most 2000000 seconds"] });
    expect(await errorsOf({ ...good, walk: good.walk.map((v, i) => (i === 2 ? 0.5 : v)) })).toEqual({ "heat.walk.2": ["a cell's walk must be a whole number"] });
    expect(await errorsOf({ ...good, cols: 64 })).toEqual({ "heat.cols": [`cols must be ${HEAT_COLS}`] });
    expect(await errorsOf({ ...good, hour: hour + 1 })).toEqual({ "heat.hour": ["hour must be the start of an hour in milliseconds since 1970"] });
    expect(await errorsOf({ ...good, hour: hoursAgo(30) })).toEqual({ "heat.hour": ["must be within the last 24 hours"] });
    expect(await errorsOf({ ...good, hour: hoursAgo(-2) })).toEqual({ "heat.hour": ["must be within the last 24 hours"] });
    // A batch with neither events nor heat is still refused as before.
    const empty = await send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, { events: [] });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { errors: Record<string, string[]> }).errors).toEqual({ events: ["Send at least one event"] });

    expect(await heatRows(user.cameraId)).toHaveLength(0);
    expect(await sql`SELECT 1 FROM vision_heat_days WHERE camera_id = ${user.cameraId}`).toHaveLength(0);
    expect(Number((await sql`SELECT count(*) AS n FROM vision_counts WHERE camera_id = ${user.cameraId}`)[0]!.n)).toBe(0);
  });
});

describe("heat from the server's pipeline", () => {
  let camera: FakeIpCamera;
  let app: TestApp;
  let databaseUrl: string;

  beforeAll(async () => {
    let clip: Awaited<ReturnType<typeof personCrossingClip>>;
    [clip, databaseUrl] = await Promise.all([personCrossingClip(), createOwnDatabase()]);
    camera = await startFakeIpCamera({ username: "admin", password: "s3cret-heat", video: clip });
    // The fake camera is on loopback: the deployment allows cameras there, as watch-pipeline.test.ts does.
    const env = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: "4",
      DATA_DIR: tempDir("insights-heat"),
      PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
      PTZ_ALLOWED_PORTS: "1024-65535",
      LOCAL_VISION_DETECTOR_THREADS: "1",
    };
    app = await startApp(env, { detached: true });
  }, 120_000);

  afterAll(async () => {
    if (app && app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
    await camera?.close();
  });

  it("writes where a real person walked and stood past a watched IP camera, when its pipeline stops", async () => {
    const user = await signUpUser({ baseUrl: app.url });
    const added = await user.client.post("/api/cameras/ip", { name: "Meeting room", streamUrl: camera.rtspUrl("/1").replace("rtsp://", "rtsp://admin:s3cret-heat@") });
    expect(added.status).toBe(201);
    const cameraId = ((await added.json()) as { id: string }).id;
    // The clip's person walks in from the left and out past x = 0.75 (the ground truth's crossing): a line there says
    // when they have walked the room.
    const line = await user.client.post(`/api/cameras/${cameraId}/lines`, { name: "Way out", a: { x: 0.75, y: 1 }, b: { x: 0.75, y: 0 }, labels: ["person"] });
    const lineId = ((await line.json()) as { id: string }).id;
    expect((await user.client.put(`/api/cameras/${cameraId}/watch`, { enabled: true, labels: ["person"], fps: 5, width: 640 })).status).toBe(200);
    const appSql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await until(
        async () => Number((await appSql`SELECT coalesce(sum(count), 0) AS n FROM vision_counts WHERE line_id = ${lineId}`)[0]!.n),
        (n) => n >= 1,
        120_000,
      );
      // Switched off, the pipeline stops and writes what its grid holds (it also writes every minute).
      expect((await user.client.put(`/api/cameras/${cameraId}/watch`, { enabled: false, labels: ["person"], fps: 5, width: 640 })).status).toBe(200);
      const map = await until(
        async () => (await (await user.client.get(`/api/cameras/${cameraId}/heatmap`)).json()) as Heatmap,
        (m) => m.hours > 0,
        30_000,
      );
      const walked = Object.keys(nonZero(map.walk)).map(Number);
      // A person walking across the room passes through several cells, left of the line and right of it.
      expect(walked.length).toBeGreaterThanOrEqual(4);
      const columns = walked.map((cell) => cell % HEAT_COLS);
      expect(Math.min(...columns)).toBeLessThan(0.75 * HEAT_COLS);
      expect(Math.max(...columns)).toBeGreaterThanOrEqual(0.75 * HEAT_COLS);
      expect(map.stay.reduce((sum, s) => sum + s, 0)).toBeGreaterThan(1);
      // Stay is only where someone walked into.
      for (const cell of Object.keys(nonZero(map.stay)).map(Number)) expect(map.walk[cell], `cell ${cell}`).toBeGreaterThan(0);
    } finally {
      await appSql.end();
    }
  }, 240_000);
});
