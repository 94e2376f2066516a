// Local vision's server side on the shared app: zones and lines per camera (owner-scoped, geometry checked), the
// studio's events counted per minute, the counts as JSON and CSV, and a reset. (Webhooks: webhook-delivery.test.ts;
// alerts: alerts.test.ts.)
import { describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";

const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: { origin: user.client.baseUrl } });

async function userWithCamera(name = "Front door"): Promise<TestUser & { cameraId: string }> {
  const user = await signUpUser();
  const camera = await send(user, "POST", "/api/cameras", { name, thumbnail: await jpegDataUrl(64, 48) });
  expect(camera.status).toBe(201);
  return { ...user, cameraId: ((await camera.json()) as { id: string }).id };
}

const triangle = [
  { x: 0.1, y: 0.1 },
  { x: 0.9, y: 0.1 },
  { x: 0.5, y: 0.9 },
];
const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };
/** The start of a minute a little while ago, so events inside it are recent and land in one known minute. */
const minuteAgo = (minutes: number) => Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000;

describe("local vision: zones and lines", () => {
  it("creates, lists, replaces and deletes a camera's zones and lines, for their owner only", async () => {
    const owner = await userWithCamera();
    const other = await userWithCamera();

    const zone = await send(owner, "POST", `/api/cameras/${owner.cameraId}/zones`, {
      name: " Till ",
      polygon: triangle,
      labels: ["person"],
      loiterSeconds: 30,
      capturePhoto: true,
      describePrompt: "  Who is waiting?  ",
    });
    expect(zone.status).toBe(201);
    const created = await zone.json();
    expect(created).toEqual({
      id: expect.any(String),
      cameraId: owner.cameraId,
      name: "Till",
      polygon: triangle,
      labels: ["person"],
      anchor: "bottom-centre",
      inertia: 3,
      loiterSeconds: 30,
      capturePhoto: true,
      describePrompt: "Who is waiting?",
      createdAt: expect.any(String),
    });
    const line = await send(owner, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 }, anchor: "centre", settleFrames: 2 });
    expect(line.status).toBe(201);
    const lineRow = await line.json();
    expect(lineRow).toMatchObject({
      name: "Door",
      a: { x: 0.5, y: 0 },
      b: { x: 0.5, y: 1 },
      labels: [],
      anchor: "centre",
      settleFrames: 2,
      capturePhoto: false,
      describePrompt: null,
    });

    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/zones`)).json()).toEqual([created]);
    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/lines`)).json()).toEqual([lineRow]);

    // Another user: every way in answers 404, and nothing of the owner's changes.
    expect((await other.client.get(`/api/cameras/${owner.cameraId}/zones`)).status).toBe(404);
    expect((await send(other, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "x", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } })).status).toBe(404);
    expect((await send(other, "PUT", `/api/zones/${created.id}`, { name: "pwned", polygon: triangle })).status).toBe(404);
    expect((await send(other, "DELETE", `/api/lines/${lineRow.id}`)).status).toBe(404);
    expect((await send(other, "POST", `/api/zones/${created.id}/reset`)).status).toBe(404);
    expect((await other.client.get(`/api/cameras/${other.cameraId}/zones`)).status).toBe(200);
    expect(await (await other.client.get(`/api/cameras/${other.cameraId}/zones`)).json()).toEqual([]);

    const replaced = await send(owner, "PUT", `/api/zones/${created.id}`, { name: "Till 2", polygon: [...triangle, { x: 0.1, y: 0.8 }] });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ id: created.id, name: "Till 2", labels: [], loiterSeconds: 0, capturePhoto: false, describePrompt: null });

    expect((await send(owner, "DELETE", `/api/lines/${lineRow.id}`)).status).toBe(204);
    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/lines`)).json()).toEqual([]);
    expect((await send(owner, "DELETE", `/api/lines/${lineRow.id}`)).status).toBe(404);

    // Deleting the camera takes its zones with it.
    expect((await send(owner, "DELETE", `/api/cameras/${owner.cameraId}`)).status).toBe(204);
    expect((await send(owner, "PUT", `/api/zones/${created.id}`, { name: "gone", polygon: triangle })).status).toBe(404);
  });

  it("explains bad geometry field by field", async () => {
    const owner = await userWithCamera();
    const zone = (json: unknown) => send(owner, "POST", `/api/cameras/${owner.cameraId}/zones`, json);
    const errorsOf = async (response: Response) => {
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      return ((await response.json()) as { errors: Record<string, string[]> }).errors;
    };

    expect((await errorsOf(await zone({ name: "Two", polygon: triangle.slice(0, 2) }))).polygon).toEqual(["A zone needs at least 3 points"]);
    const many = Array.from({ length: 33 }, (_, i) => ({ x: 0.5 + 0.4 * Math.cos(i / 5), y: 0.5 + 0.4 * Math.sin(i / 5) }));
    expect((await errorsOf(await zone({ name: "Many", polygon: many }))).polygon).toEqual(["A zone can have at most 32 points"]);
    expect(
      (
        await errorsOf(
          await zone({
            name: "Out",
            polygon: [
              { x: 0, y: 0 },
              { x: 1.5, y: 0 },
              { x: 1, y: 1 },
            ],
          }),
        )
      )["polygon.1.x"],
    ).toEqual(["x must be between 0 and 1"]);
    expect(
      (
        await errorsOf(
          await zone({
            name: "Flat",
            polygon: [
              { x: 0, y: 0 },
              { x: 0.5, y: 0.5 },
              { x: 1, y: 1 },
            ],
          }),
        )
      ).polygon,
    ).toEqual(["A zone's points must enclose an area"]);
    // Edges that cross: a bow-tie, a pentagram. Creating one is refused, and so is turning a saved zone into one.
    const bowTie = [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.9 },
      { x: 0.9, y: 0.1 },
      { x: 0.1, y: 0.9 },
    ];
    const pentagram = [0, 2, 4, 1, 3].map((k) => ({ x: 0.5 + 0.4 * Math.sin((k * 2 * Math.PI) / 5), y: 0.5 - 0.4 * Math.cos((k * 2 * Math.PI) / 5) }));
    const crossing = "The zone's edges cross each other: draw its corners in order around the area";
    for (const polygon of [bowTie, pentagram]) expect((await errorsOf(await zone({ name: "Crossed", polygon }))).polygon).toEqual([crossing]);
    const saved = (await (await zone({ name: "Square", polygon: [bowTie[0], bowTie[2], bowTie[1], bowTie[3]] })).json()) as { id: string; polygon: unknown };
    expect((await errorsOf(await send(owner, "PUT", `/api/zones/${saved.id}`, { name: "Square", polygon: bowTie }))).polygon).toEqual([crossing]);
    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/zones`)).json()).toMatchObject([{ id: saved.id, polygon: saved.polygon }]);
    expect((await send(owner, "DELETE", `/api/zones/${saved.id}`)).status).toBe(204);

    expect((await errorsOf(await zone({ name: "x".repeat(101), polygon: triangle }))).name).toEqual(["Name must be at most 100 characters"]);
    expect((await errorsOf(await zone({ name: " ", polygon: triangle }))).name).toEqual(["Name is required"]);

    const line = await send(owner, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "Dot", a: { x: 0.3, y: 0.3 }, b: { x: 0.3, y: 0.3 } });
    expect((await errorsOf(line)).b).toEqual(["A line's two ends must be apart"]);
    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/zones`)).json()).toEqual([]);
    expect(await (await owner.client.get(`/api/cameras/${owner.cameraId}/lines`)).json()).toEqual([]);
  });
});

describe("local vision: events and counts", () => {
  it("counts events per minute, class and direction, serves them as JSON and CSV, and resets one line", async () => {
    const owner = await userWithCamera("Shop, front");
    const line = await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "=Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
    const zone = await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/zones`, { name: "Till", polygon: triangle })).json();
    const t0 = minuteAgo(3);
    const t1 = minuteAgo(2);
    const crossing = (at: number, direction: "in" | "out", label = "person", trackId = 1) => ({ type: "line.crossed", lineId: line.id, direction, trackId, label, at, box });
    const events = [
      crossing(t0 + 1_000, "in"),
      crossing(t0 + 2_000, "in", "person", 2),
      crossing(t0 + 3_000, "out"),
      crossing(t0 + 4_000, "in", "dog", 3),
      { ...crossing(t1 + 5_000, "in"), lineId: line.id.toUpperCase() },
      { type: "zone.entered", zoneId: zone.id, trackId: 1, label: "person", at: t0 + 10_000, box },
      { type: "zone.exited", zoneId: zone.id, trackId: 1, label: "person", at: t1 + 10_000, box, dwellSeconds: 60 },
      // A line deleted meanwhile (or another camera's): left out, not an error.
      { type: "zone.entered", zoneId: "00000000-0000-4000-8000-000000000000", trackId: 9, label: "person", at: t1, box },
    ];
    // Two batches add to the same minute's row (person in at t0: one in each).
    const posted = await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { events: [events[0], events[2]] });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ accepted: 2, ignored: 0, duplicate: false });
    const second = await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { events: [events[1], ...events.slice(3)] });
    expect(await second.json()).toEqual({ accepted: 5, ignored: 1, duplicate: false });

    const counts = await (await owner.client.get(`/api/cameras/${owner.cameraId}/counts`)).json();
    const m0 = new Date(t0).toISOString();
    const m1 = new Date(t1).toISOString();
    expect(counts.rows).toEqual(
      expect.arrayContaining([
        { minute: m0, lineId: line.id, zoneId: null, label: "person", kind: "in", count: 2 },
        { minute: m0, lineId: line.id, zoneId: null, label: "person", kind: "out", count: 1 },
        { minute: m0, lineId: line.id, zoneId: null, label: "dog", kind: "in", count: 1 },
        { minute: m1, lineId: line.id, zoneId: null, label: "person", kind: "in", count: 1 },
        { minute: m0, lineId: null, zoneId: zone.id, label: "person", kind: "entered", count: 1 },
        { minute: m1, lineId: null, zoneId: zone.id, label: "person", kind: "exited", count: 1 },
      ]),
    );
    expect(counts.rows).toHaveLength(6);
    expect(counts.rows.map((r: { minute: string }) => r.minute)).toEqual([m0, m0, m0, m0, m1, m1]);

    // A filter by line and a time range.
    const lineOnly = await (await owner.client.get(`/api/cameras/${owner.cameraId}/counts?lineId=${line.id}&from=${encodeURIComponent(m1)}`)).json();
    expect(lineOnly.rows).toEqual([{ minute: m1, lineId: line.id, zoneId: null, label: "person", kind: "in", count: 1 }]);
    const backwards = await owner.client.get(`/api/cameras/${owner.cameraId}/counts?from=${encodeURIComponent(m1)}&to=${encodeURIComponent(m0)}`);
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).errors.from).toEqual(["must be before to"]);

    // The CSV: a download with the camera in its name, names quoted and never read as formulas.
    const csv = await owner.client.get(`/api/cameras/${owner.cameraId}/counts.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="framewise-counts-shop-front-\d{4}-\d\d-\d\dT\d{4}-\d{4}-\d\d-\d\dT\d{4}\.csv"$/);
    const csvLines = (await csv.text()).trimEnd().split("\r\n");
    expect(csvLines[0]).toBe("minute,type,id,name,class,kind,count");
    expect(csvLines).toContain(`${m0},line,${line.id},'=Door,person,in,2`);
    expect(csvLines).toContain(`${m1},zone,${zone.id},Till,person,exited,1`);
    expect(csvLines).toHaveLength(7);

    // Reset the line: its counts go, the zone's stay.
    expect((await send(owner, "POST", `/api/lines/${line.id}/reset`)).status).toBe(204);
    const after = await (await owner.client.get(`/api/cameras/${owner.cameraId}/counts`)).json();
    expect(after.rows.map((r: { zoneId: string | null }) => r.zoneId)).toEqual([zone.id, zone.id]);

    // Another user sees none of it.
    const other = await userWithCamera();
    expect((await other.client.get(`/api/cameras/${owner.cameraId}/counts`)).status).toBe(404);
    expect((await other.client.get(`/api/cameras/${owner.cameraId}/counts.csv`)).status).toBe(404);
    expect((await send(other, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { events: events.slice(0, 1) })).status).toBe(404);
  });

  it("refuses bad, old and oversized batches whole, counting nothing", async () => {
    const owner = await userWithCamera();
    const line = await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
    const good = { type: "line.crossed", lineId: line.id, direction: "in", trackId: 1, label: "person", at: Date.now(), box };
    const post = (events: unknown) => send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { events });

    const wrongType = await post([good, { ...good, type: "line.jumped" }]);
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).errors["events.1.type"]).toEqual(["type must be line.crossed, zone.entered, zone.exited or zone.loitering"]);
    const old = await post([good, { ...good, at: Date.now() - 2 * 24 * 3600_000 }]);
    expect(old.status).toBe(400);
    expect((await old.json()).errors["events.1.at"]).toEqual(["must be within the last 24 hours"]);
    const tooMany = await post(Array.from({ length: 101 }, () => good));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).errors.events).toEqual(["Send at most 100 events at once"]);
    const stranger = await userWithCamera();
    const theirPhoto = await (await send(stranger, "POST", "/api/photos", { imageData: await jpegDataUrl(32, 24) })).json();
    const notMine = await post([good, { ...good, photoId: theirPhoto.id }]);
    expect(notMine.status).toBe(400);
    expect((await notMine.json()).errors["events.1.photoId"]).toEqual(["No such photo"]);
    const huge = await post([{ ...good, label: "x".repeat(70_000) }]);
    expect(huge.status).toBe(413);
    expect((await post([])).status).toBe(400);

    expect((await (await owner.client.get(`/api/cameras/${owner.cameraId}/counts`)).json()).rows).toEqual([]);
  });

  it("limits event batches per user to 240 a minute (429 with Retry-After), others unaffected", async () => {
    const owner = await userWithCamera();
    // Events for a zone that is not there: accepted as ignored, so each batch costs little.
    const batch = { events: [{ type: "zone.entered", zoneId: "00000000-0000-4000-8000-000000000000", trackId: 1, label: "person", at: Date.now(), box }] };
    const post = (user: TestUser & { cameraId: string }) => send(user, "POST", `/api/cameras/${user.cameraId}/vision-events`, batch);
    for (let round = 0; round < 24; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await post(owner)).status));
      expect(statuses).toEqual(Array(10).fill(200));
    }
    const refused = await post(owner);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).detail).toMatch(/^Too many event batches\. Try again in 1 minute\.$/);
    expect((await post(await userWithCamera())).status).toBe(200);
  });

  it("records a batch sent again under its batchId once, even when the copies race, and keeps users' ids apart", async () => {
    const owner = await userWithCamera();
    const line = await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/lines`, { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
    const at = minuteAgo(1) + 1_000;
    const batch = { batchId: "6f1c0f5e-8d2a-4c1b-9e3f-2a7b5c9d0e11", events: [{ type: "line.crossed", lineId: line.id, direction: "in", trackId: 4, label: "person", at, box }] };
    const answers = await Promise.all(Array.from({ length: 4 }, async () => (await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, batch)).json()));
    expect(answers.filter((a) => !a.duplicate)).toEqual([{ accepted: 1, ignored: 0, duplicate: false }]);
    expect(answers.filter((a) => a.duplicate)).toEqual(Array(3).fill({ accepted: 0, ignored: 0, duplicate: true }));
    // The same id in capitals is the same batch.
    expect(await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { ...batch, batchId: batch.batchId.toUpperCase() })).json()).toMatchObject({
      duplicate: true,
    });
    const counts = await (await owner.client.get(`/api/cameras/${owner.cameraId}/counts`)).json();
    expect(counts.rows).toEqual([{ minute: new Date(minuteAgo(1)).toISOString(), lineId: line.id, zoneId: null, label: "person", kind: "in", count: 1 }]);
    // Without a batchId every batch counts; another user's batch with the same id is theirs, not a resend.
    const { batchId: _, ...plain } = batch;
    expect(await (await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, plain)).json()).toMatchObject({ accepted: 1, duplicate: false });
    const other = await userWithCamera();
    const otherLine = await (await send(other, "POST", `/api/cameras/${other.cameraId}/lines`, { name: "Gate", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
    const theirs = { batchId: batch.batchId, events: [{ ...batch.events[0], lineId: otherLine.id }] };
    expect(await (await send(other, "POST", `/api/cameras/${other.cameraId}/vision-events`, theirs)).json()).toEqual({ accepted: 1, ignored: 0, duplicate: false });
    expect((await send(owner, "POST", `/api/cameras/${owner.cameraId}/vision-events`, { ...batch, batchId: "not-a-uuid" })).status).toBe(400);
  });
});
