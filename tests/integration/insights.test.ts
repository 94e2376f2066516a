// Insights on the shared app and its PostgreSQL: the rollups equal the minutes they come from, reports and attendance
// are right across a daylight-saving change, and a report never holds another user's rows.
import { sql } from "kysely";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "#db/index";
import { markDirtyHours, runRollups } from "#server/insights/rollup";
import { buildReport } from "#server/insights/report";
import { rebuildSiteHours } from "#server/insights/site-hours";
import { dwellHistogram } from "#server/insights/queries";
import { resolveScope } from "#server/insights/scope";
import { addDwell } from "#server/local-vision/queries";
import { send, userWithPlace, type Place } from "../support/places";

const db = createDb(inject("databaseUrl"), 3);
afterAll(() => db.destroy());

const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };

async function userWithDoor(): Promise<Place> {
  return userWithPlace({ camera: "Front door", line: "Door", zone: "Lobby" });
}

/** Minutes written as an events batch writes them (and queued for their rollup), for times the API would call too old. */
async function addMinutes(place: Place, rows: { minute: string; kind: "in" | "out"; count: number; label?: string }[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const row of rows)
      await sql`insert into vision_counts (user_id, camera_id, line_id, zone_id, minute, label, kind, count)
        values (${place.id}::uuid, ${place.cameraId}::uuid, ${place.lineId}::uuid, null, ${row.minute}::timestamptz, ${row.label ?? "person"}, ${row.kind}, ${row.count})
        on conflict (camera_id, coalesce(line_id, zone_id), minute, label, kind) do update set count = vision_counts.count + excluded.count`.execute(trx);
    await markDirtyHours(
      trx,
      place.cameraId,
      rows.map((row) => new Date(row.minute)),
    );
  });
}

/** Rolls up until the camera has nothing queued (the app's own job may be taking rows at the same time). */
async function rolledUp(cameraId: string): Promise<void> {
  await expect
    .poll(async () => {
      await runRollups(db);
      return Number((await sql<{ n: string }>`select count(*) as n from insight_rollup_queue where camera_id = ${cameraId}::uuid`.execute(db)).rows[0]!.n);
    })
    .toBe(0);
}

async function sums(cameraId: string) {
  const by = async (table: string) =>
    (
      await sql<{ target: string; label: string; kind: string; total: number }>`
        select coalesce(line_id, zone_id)::text as target, label, kind, sum(count)::int as total from ${sql.table(table)}
        where camera_id = ${cameraId}::uuid group by 1, 2, 3 order by 1, 2, 3`.execute(db)
    ).rows;
  return { minutes: await by("vision_counts"), hours: await by("vision_count_hours"), days: await by("vision_count_days") };
}

describe("insights: rollups", () => {
  it("keeps hours and days equal to the minutes they come from, however the batches arrive", async () => {
    const place = await userWithDoor();
    const now = Date.now();
    // Events over the last 20 hours through the API, in several batches, with a resend of one batch.
    const events = Array.from({ length: 120 }, (_, i) => {
      const at = now - 20 * 3600_000 + i * 9 * 60_000 + 7_000;
      return i % 5 === 4
        ? { type: "zone.exited", zoneId: place.zoneId, trackId: i, label: "person", at, box, dwellSeconds: 5 + i * 7 }
        : { type: "line.crossed", lineId: place.lineId, direction: i % 3 === 0 ? "out" : "in", trackId: i, label: i % 7 === 0 ? "dog" : "person", at, box };
    });
    for (let i = 0; i < events.length; i += 25) {
      const batchId = crypto.randomUUID();
      const batch = { events: events.slice(i, i + 25), batchId };
      expect((await send(place, "POST", `/api/cameras/${place.cameraId}/vision-events`, batch)).status).toBe(200);
      if (i === 50) expect(await (await send(place, "POST", `/api/cameras/${place.cameraId}/vision-events`, batch)).json()).toMatchObject({ duplicate: true });
    }
    // The app's job rolls them up by itself.
    await expect.poll(async () => (await sums(place.cameraId)).hours, { timeout: 15_000 }).toEqual((await sums(place.cameraId)).minutes);
    const { minutes, hours, days } = await sums(place.cameraId);
    expect(minutes.reduce((s, row) => s + row.total, 0)).toBe(120);
    expect(hours).toEqual(minutes);
    expect(days).toEqual(minutes);

    // Recomputing again changes nothing (idempotent), and minutes added later to an hour already rolled up count.
    const hour = new Date(Math.floor((now - 3 * 3600_000) / 3600_000) * 3600_000);
    await markDirtyHours(db, place.cameraId, [hour]);
    await addMinutes(place, [{ minute: new Date(hour.getTime() + 60_000).toISOString(), kind: "in", count: 4 }]);
    await rolledUp(place.cameraId);
    const after = await sums(place.cameraId);
    expect(after.hours).toEqual(after.minutes);
    expect(after.days).toEqual(after.minutes);
    expect(after.minutes.reduce((s, row) => s + row.total, 0)).toBe(124);

    // The dwell histogram holds each exit once, in its bucket.
    for (const table of ["vision_dwell_hours", "vision_dwell_days"]) {
      const dwell = (await sql<{ n: number }>`select sum(count)::int as n from ${sql.table(table)} where zone_id = ${place.zoneId}::uuid`.execute(db)).rows[0]!.n;
      expect(dwell).toBe(24);
    }

    // A reset of the line clears its rollups with its minutes.
    expect((await send(place, "POST", `/api/lines/${place.lineId}/reset`)).status).toBe(204);
    const reset = await sums(place.cameraId);
    expect(reset.hours.filter((row) => row.target === place.lineId)).toEqual([]);
    expect(reset.days.filter((row) => row.target === place.lineId)).toEqual([]);
  });

  it("reads a zone's time spent over whole UTC days from the daily histogram and the hours at the ends, the same as hour by hour", async () => {
    const place = await userWithDoor();
    const midnight = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000;
    // Exits over four UTC days, at hours that fall on both sides of every range below.
    const increments = [1, 5, 11, 23, 24 + 2, 24 + 13, 48 + 0, 48 + 20, 72 + 9].map((hour, i) => ({
      zoneId: place.zoneId,
      hour: new Date(midnight + hour * 3600_000),
      label: i % 3 === 0 ? "dog" : "person",
      bucket: i % 4,
      count: 1 + i,
    }));
    await addDwell(db, place.id, place.cameraId, increments);
    const scope = await resolveScope(db, place.id, { cameraIds: [place.cameraId], lineIds: [], zoneIds: [], labels: [] });
    const hourByHour = async (from: number, to: number) =>
      (
        await sql<{ zone_id: string; bucket: number; count: number }>`select zone_id, bucket, sum(count)::int as count from vision_dwell_hours
          where zone_id = ${place.zoneId}::uuid and hour >= ${new Date(from)} and hour < ${new Date(to)} group by 1, 2`.execute(db)
      ).rows;
    const sorted = (rows: { zone_id: string; bucket: number; count: number }[]) => [...rows].sort((a, b) => a.bucket - b.bucket);
    const ranges = [
      [midnight + 4 * 3600_000, midnight + 70 * 3600_000], // two whole days and two ends
      [midnight, midnight + 96 * 3600_000], // whole days only
      [midnight + 3 * 3600_000, midnight + 20 * 3600_000], // within one day
      [midnight + 20 * 3600_000, midnight + 30 * 3600_000], // across one midnight, no whole day
    ] as const;
    for (const [from, to] of ranges) {
      const expected = sorted(await hourByHour(from, to));
      expect(expected.length).toBeGreaterThan(0);
      expect(sorted(await dwellHistogram(db, scope, { from: new Date(from), to: new Date(to) }))).toEqual(expected);
    }
    // A class filter applies to both.
    const dogs = await dwellHistogram(db, { ...scope, labels: ["dog"] }, { from: new Date(midnight), to: new Date(midnight + 96 * 3600_000) });
    expect(dogs.reduce((s, row) => s + row.count, 0)).toBe(1 + 4 + 7);
  });

  it("never rolls up an hour without the minutes of a batch that marked it and has not committed yet", async () => {
    const place = await userWithDoor();
    const hour = new Date(Math.floor((Date.now() - 5 * 3600_000) / 3600_000) * 3600_000);
    await addMinutes(place, [{ minute: new Date(hour.getTime() + 60_000).toISOString(), kind: "in", count: 2 }]);
    // The hour is queued; a second batch marks it again and, before it commits, a rollup runs in another process.
    await db.transaction().execute(async (trx) => {
      await sql`insert into vision_counts (user_id, camera_id, line_id, zone_id, minute, label, kind, count)
        values (${place.id}::uuid, ${place.cameraId}::uuid, ${place.lineId}::uuid, null, ${new Date(hour.getTime() + 120_000)}, 'person', 'in', 3)`.execute(trx);
      await markDirtyHours(trx, place.cameraId, [hour]);
      await runRollups(db);
    });
    await rolledUp(place.cameraId);
    const after = await sums(place.cameraId);
    expect(after.minutes.reduce((s, row) => s + row.total, 0)).toBe(5);
    expect(after.hours).toEqual(after.minutes);
    expect(after.days).toEqual(after.minutes);
  });
});

describe("insights: a site's summed hours", () => {
  it("answers a whole site's report from its summed hours exactly as from its doors' rollups, through new counts, a door turned round and a reset", async () => {
    const place = await userWithDoor();
    const base = Math.floor((Date.now() - 30 * 3600_000) / 3600_000) * 3600_000;
    const at = (hours: number, minutes: number) => new Date(base + hours * 3600_000 + minutes * 60_000).toISOString();
    await addMinutes(place, [
      { minute: at(0, 5), kind: "in", count: 6 },
      { minute: at(0, 40), kind: "out", count: 2 },
      { minute: at(3, 10), kind: "in", count: 4 },
      { minute: at(5, 59), kind: "out", count: 7 },
    ]);
    await rolledUp(place.cameraId);
    const created = await send(place, "POST", "/api/insights/sites", { name: "Depot", timeZone: "UTC", cameraIds: [place.cameraId] });
    expect(created.status).toBe(201);
    const { id: siteId } = await created.json();

    const period = { from: new Date(base - 86_400_000).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10), resolution: "hour" as const };
    const built = async () => (await sql<{ key: string | null }>`select hours_doors as key from sites where id = ${siteId}::uuid`.execute(db)).rows[0]!.key;
    /** The site's report (from its summed hours once built) and the same doors narrowed by line (from the rollups). */
    const both = async () => {
      const whole = await buildReport(db, place.id, { siteId, ...period });
      const byLine = await buildReport(db, place.id, { siteId, lineIds: [place.lineId], ...period });
      for (const report of [whole, byLine]) expect(report.traffic.length).toBeGreaterThan(24);
      return { whole: [whole.traffic, whole.weekHours, whole.occupancy], byLine: [byLine.traffic, byLine.weekHours, byLine.occupancy], entries: whole.totals.entries };
    };
    const summed = async () => Number((await sql<{ n: string }>`select coalesce(sum(entries), 0) as n from site_hours where site_id = ${siteId}::uuid`.execute(db)).rows[0]!.n);

    // Built by the job the site's creation booked: the report reads it, and it says what the rollups say.
    await expect.poll(built, { timeout: 15_000 }).toBe(`${place.lineId}:in`);
    expect(await summed()).toBe(10);
    let reports = await both();
    expect(reports.whole).toEqual(reports.byLine);
    // It is what the site's report reads: a wrong row there shows (and a rebuild mends it).
    await sql`update site_hours set entries = entries + 100 where site_id = ${siteId}::uuid`.execute(db);
    reports = await both();
    expect(reports.whole).not.toEqual(reports.byLine);
    await rebuildSiteHours(db, siteId);
    reports = await both();
    expect(reports.whole).toEqual(reports.byLine);

    // New counts in a built hour and a new hour: the rollup keeps the site's hours in step.
    await addMinutes(place, [
      { minute: at(3, 30), kind: "in", count: 5 },
      { minute: at(8, 0), kind: "in", count: 1 },
    ]);
    await rolledUp(place.cameraId);
    expect(await summed()).toBe(16);
    reports = await both();
    expect(reports.whole).toEqual(reports.byLine);

    // The door turned round: until rebuilt the report reads the rollups (never the old direction), then the new sums.
    expect(
      (
        await send(place, "PUT", `/api/insights/sites/${siteId}`, {
          name: "Depot",
          timeZone: "UTC",
          cameraIds: [place.cameraId],
          doors: [{ lineId: place.lineId, entering: "out" }],
        })
      ).status,
    ).toBe(200);
    reports = await both();
    expect(reports.entries).toBe(9);
    expect(reports.whole).toEqual(reports.byLine);
    await expect.poll(built, { timeout: 15_000 }).toBe(`${place.lineId}:out`);
    expect(await summed()).toBe(9);
    reports = await both();
    expect(reports.whole).toEqual(reports.byLine);

    // A reset of the door: its counts leave the site's summed hours with it, in the same transaction.
    expect((await send(place, "POST", `/api/lines/${place.lineId}/reset`)).status).toBe(204);
    expect(await summed()).toBe(0);
    expect(await built()).toBe(`${place.lineId}:out`);
    reports = await both();
    expect(reports.entries).toBe(0);
    expect(reports.whole).toEqual(reports.byLine);
  });
});

describe("insights: reports and attendance across a daylight-saving change", () => {
  // London leaves summer time at 01:00 UTC on Sunday 25 October 2026: 10:05 local is 09:05Z on the 18th, 10:05Z on the 25th.
  const sundays = [
    { date: "2026-10-18", offsetHours: 1 },
    { date: "2026-10-25", offsetHours: 0 },
    { date: "2026-11-01", offsetHours: 0 },
  ];
  const utc = (date: string, clock: string, offsetHours: number) => new Date(Date.parse(`${date}T${clock}:00Z`) - offsetHours * 3600_000).toISOString();

  it("counts each Sunday service in local time, with its peak and arrivals, and the days' occupancy", async () => {
    const place = await userWithDoor();
    const rows = sundays.flatMap(({ date, offsetHours }, week) => [
      { minute: utc(date, "09:50", offsetHours), kind: "in" as const, count: 10 + week }, // before the service
      { minute: utc(date, "10:05", offsetHours), kind: "in" as const, count: 5 }, // late comers
      { minute: utc(date, "11:40", offsetHours), kind: "out" as const, count: 15 + week },
      { minute: utc(date, "12:30", offsetHours), kind: "in" as const, count: 2 }, // after it: not its attendance
    ]);
    await addMinutes(place, rows);
    await rolledUp(place.cameraId);

    const site = await send(place, "POST", "/api/insights/sites", { name: "St Mary's", timeZone: "Europe/London", cameraIds: [place.cameraId], capacity: 12 });
    expect(site.status).toBe(201);
    const { id: siteId } = await site.json();
    const service = await send(place, "POST", `/api/insights/sites/${siteId}/windows`, {
      name: "Sunday service",
      kind: "weekly",
      weekdays: [0],
      startsAt: "10:00",
      endsAt: "11:30",
    });
    expect(service.status).toBe(201);
    // The site's time zone rebuilds the camera's days (a job): wait for the days to be London's.
    await expect
      .poll(async () =>
        (await sql<{ tz: string }>`select distinct time_zone as tz from vision_count_days where camera_id = ${place.cameraId}::uuid`.execute(db)).rows.map((r) => r.tz),
      )
      .toEqual(["Europe/London"]);

    const attendance = await (await place.client.get(`/api/insights/sites/${siteId}/attendance?from=2026-10-12&to=2026-11-02`)).json();
    expect(attendance.timeZone).toBe("Europe/London");
    expect(
      attendance.occurrences.map((o: { date: string; start: string; entries: number; peak: number; peakAt: string }) => [o.date, o.start, o.entries, o.peak, o.peakAt]),
    ).toEqual([
      ["2026-10-18", "2026-10-18T09:00:00.000Z", 5, 15, "2026-10-18T09:05:00.000Z"],
      ["2026-10-25", "2026-10-25T10:00:00.000Z", 5, 16, "2026-10-25T10:05:00.000Z"],
      ["2026-11-01", "2026-11-01T10:00:00.000Z", 5, 17, "2026-11-01T10:05:00.000Z"],
    ]);
    const arrivals = attendance.occurrences[1].arrivals as { start: string; entries: number }[];
    expect(arrivals[0]).toEqual({ start: "2026-10-25T09:30:00.000Z", entries: 0 });
    expect(arrivals.find((slot) => slot.start === "2026-10-25T09:45:00.000Z")?.entries).toBe(11);
    expect(arrivals.find((slot) => slot.start === "2026-10-25T10:00:00.000Z")?.entries).toBe(5);

    // A closed day drops that Sunday; a one-off event adds its own occurrence.
    await send(place, "POST", `/api/insights/sites/${siteId}/windows`, { name: "Half term", kind: "closed", date: "2026-10-25" });
    await send(place, "POST", `/api/insights/sites/${siteId}/windows`, { name: "Concert", kind: "once", date: "2026-10-25", startsAt: "12:00", endsAt: "13:00" });
    const changed = await (await place.client.get(`/api/insights/sites/${siteId}/attendance?from=2026-10-12&to=2026-11-02`)).json();
    expect(changed.occurrences.map((o: { name: string; date: string; entries: number }) => [o.name, o.date, o.entries])).toEqual([
      ["Sunday service", "2026-10-18", 5],
      ["Concert", "2026-10-25", 2],
      ["Sunday service", "2026-11-01", 5],
    ]);

    // The report over the three weeks, by day in London: each Sunday is its own day, whatever its UTC offset.
    const report = await (await place.client.get(`/api/insights/report?siteId=${siteId}&from=2026-10-12&to=2026-11-02`)).json();
    expect(report.timeZone).toBe("Europe/London");
    expect(report.resolution).toBe("day");
    const byDay = Object.fromEntries(report.traffic.map((step: { start: string; entries: number }) => [step.start, step.entries]));
    expect(byDay["2026-10-17T23:00:00.000Z"]).toBe(17); // 18 October began at 23:00Z (summer time)
    expect(byDay["2026-10-24T23:00:00.000Z"]).toBe(18); // the change is at 02:00 local: 25 October still began in summer time
    expect(byDay["2026-10-26T00:00:00.000Z"]).toBe(0); // and 26 October in winter time
    expect(byDay["2026-11-01T00:00:00.000Z"]).toBe(19);
    expect(report.totals).toMatchObject({ entries: 54, exits: 48, lastYear: null });
    const days = Object.fromEntries(report.occupancy.days.map((day: { date: string; peak: number }) => [day.date, day.peak]));
    expect(days).toMatchObject({ "2026-10-18": 15, "2026-10-25": 16, "2026-11-01": 17, "2026-10-19": 0 });
    expect(report.occupancy).toMatchObject({ peak: 17, peakAt: "2026-11-01T10:05:00.000Z", detail: "minute" });
    expect(report.capacity).toBe(12);
    // Busiest weekday and hour: Sunday (6 with Monday 0) at 09:00 local.
    expect(report.weekHours[6][9]).toBe(33);
    expect(report.weekHours[6][10]).toBe(15);

    // With minutes kept only a week, the same figures come from the hours.
    expect((await send(place, "PUT", "/api/insights/settings", { timeZone: "Europe/London", minuteRetentionDays: 7 })).status).toBe(200);
    const fromHours = await (await place.client.get(`/api/insights/sites/${siteId}/attendance?from=2026-10-12&to=2026-11-02`)).json();
    expect(fromHours.occurrences.map((o: { entries: number; peak: number }) => [o.entries, o.peak])).toEqual([
      [5, 15],
      [2, 2],
      [5, 17],
    ]);
  });
});

describe("insights: whose data", () => {
  it("never puts another user's rows in a report, and refuses their ids as if they did not exist", async () => {
    const owner = await userWithDoor();
    const other = await userWithDoor();
    await addMinutes(owner, [{ minute: "2026-11-02T10:00:00Z", kind: "in", count: 3 }]);
    await addMinutes(other, [{ minute: "2026-11-02T10:00:00Z", kind: "in", count: 40 }]);
    await rolledUp(owner.cameraId);
    await rolledUp(other.cameraId);

    const mine = await (await owner.client.get("/api/insights/report?from=2026-11-01&to=2026-11-07&timeZone=UTC")).json();
    expect(mine.totals.entries).toBe(3);
    expect(mine.lines.map((line: { id: string }) => line.id)).toEqual([owner.lineId]);
    for (const query of [`cameraIds=${other.cameraId}`, `lineIds=${other.lineId}`, `zoneIds=${other.zoneId}`]) {
      const refused = await owner.client.get(`/api/insights/report?from=2026-11-01&to=2026-11-07&${query}`);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    const theirSite = await (await send(other, "POST", "/api/insights/sites", { name: "Theirs", timeZone: "UTC", cameraIds: [other.cameraId] })).json();
    expect((await owner.client.get(`/api/insights/report?siteId=${theirSite.id}&from=2026-11-01&to=2026-11-07`)).status).toBe(404);
    expect((await owner.client.get(`/api/insights/sites/${theirSite.id}/attendance`)).status).toBe(404);
    expect((await send(owner, "PUT", `/api/insights/sites/${theirSite.id}`, { name: "Mine now", timeZone: "UTC", cameraIds: [owner.cameraId] })).status).toBe(404);
    expect((await send(owner, "POST", "/api/insights/sites", { name: "Grab", timeZone: "UTC", cameraIds: [other.cameraId] })).status).toBe(404);
    expect((await send(owner, "POST", `/api/insights/sites/${theirSite.id}/windows`, { name: "x", kind: "weekly", weekdays: [1] })).status).toBe(404);
    expect(await (await other.client.get("/api/insights/sites")).json()).toMatchObject([{ id: theirSite.id, cameraIds: [other.cameraId] }]);
  });

  it("answers bad input with problems naming the field, and writes nothing", async () => {
    const owner = await userWithDoor();
    const bad = async (response: Response, field: string) => {
      expect(response.status).toBe(400);
      const problem = await response.json();
      expect(Object.keys(problem.errors ?? {})).toContain(field);
    };
    await bad(await owner.client.get("/api/insights/report?from=2026-11-07&to=2026-11-01"), "from");
    await bad(await owner.client.get("/api/insights/report?from=2025-01-01&to=2026-11-01&resolution=minute"), "from");
    await bad(await owner.client.get("/api/insights/report?from=2026-01-01&to=2026-11-01&resolution=minute"), "resolution");
    await bad(await owner.client.get("/api/insights/report?from=2026-02-30&to=2026-03-01"), "from");
    await bad(await owner.client.get("/api/insights/report?from=2026-11-01&to=2026-11-02&timeZone=Mars/Olympus"), "timeZone");
    await bad(await send(owner, "POST", "/api/insights/sites", { name: "", timeZone: "Europe/London", cameraIds: [owner.cameraId] }), "name");
    await bad(await send(owner, "POST", "/api/insights/sites", { name: "x", timeZone: "Nowhere", cameraIds: [owner.cameraId] }), "timeZone");
    await bad(await send(owner, "PUT", "/api/insights/settings", { timeZone: "UTC", minuteRetentionDays: 1 }), "minuteRetentionDays");
    const site = await (await send(owner, "POST", "/api/insights/sites", { name: "Shop", timeZone: "Europe/Paris", cameraIds: [owner.cameraId] })).json();
    await bad(await send(owner, "POST", `/api/insights/sites/${site.id}/windows`, { name: "Open", kind: "weekly", weekdays: [] }), "weekdays");
    await bad(await send(owner, "POST", `/api/insights/sites/${site.id}/windows`, { name: "Open", kind: "weekly", weekdays: [1], startsAt: "18:00", endsAt: "09:00" }), "endsAt");
    await bad(await send(owner, "POST", `/api/insights/sites/${site.id}/windows`, { name: "Closed", kind: "closed" }), "date");
    expect(await (await owner.client.get(`/api/insights/sites/${site.id}/windows`)).json()).toEqual([]);
  });
});
