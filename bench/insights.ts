// Insights benchmarks (`npm run bench -- insights`): a year of per-minute counts for 20 lines and 10 zones of one user
// (a site in Europe/London) among 10 users, then the Insights page's report for a year by day and a week by hour,
// end to end over HTTP and as its queries in-process, against the same figures computed from the raw per-minute rows
// in the same run; and what the rollup costs per 1,000 events against writing those events' minutes.
import { Kysely, sql, type RawBuilder } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import type { DB } from "#db/index";
import type { Database } from "#db/schema";
import { markDirtyHours, runRollups } from "#server/insights/rollup";
import { buildReport } from "#server/insights/report";
import { localDate } from "#app/lib/local-dates";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { ms, table, timeRuns, verdict } from "./lib";

const RUNS = Number(process.env.BENCH_INSIGHTS_RUNS ?? 40);
const TIME_ZONE = "Europe/London";

const timed = (run: () => Promise<unknown>) => timeRuns(run, RUNS, 3);

/**
 * Whether a seeded row is kept, with probability `share`: a hash of the row's identity, not random(), whose value the
 * planner may compute once per line or per minute depending on the plan (runs then held 3 or 6 million rows).
 */
const kept = (identity: RawBuilder<unknown>, share: number | RawBuilder<unknown>) => sql`(abs(hashtext(${identity})) % 100000) < 100000 * (${share})::float8`;

/** A user's cameras, lines and zones, and a year of minutes during opening hours (08:00–20:00 UTC), `density` of them busy. */
export async function seedUser(db: DB, userId: string, shape: { cameras: number; lines: number; zones: number; density: number }): Promise<string[]> {
  const cameras = (
    await sql<{ id: string }>`insert into cameras (user_id, name) select ${userId}::uuid, 'Camera ' || i from generate_series(1, ${shape.cameras}) i returning id`.execute(db)
  ).rows.map((row) => row.id);
  await sql`insert into vision_lines (user_id, camera_id, name, geometry)
    select ${userId}::uuid, (${cameras}::uuid[])[1 + (i % ${shape.cameras})], 'Door ' || i, '{"a":{"x":0.5,"y":0},"b":{"x":0.5,"y":1}}'::jsonb
    from generate_series(1, ${shape.lines}) i`.execute(db);
  await sql`insert into vision_zones (user_id, camera_id, name, geometry)
    select ${userId}::uuid, (${cameras}::uuid[])[1 + (i % ${shape.cameras})], 'Zone ' || i, '[{"x":0.1,"y":0.1},{"x":0.9,"y":0.1},{"x":0.5,"y":0.9}]'::jsonb
    from generate_series(1, ${shape.zones}) i`.execute(db);
  const minutes = sql`(select date_trunc('day', now()) - make_interval(days => d) + make_interval(mins => m) as minute
    from generate_series(0, 364) d, generate_series(480, 1199) m)`;
  await sql`insert into vision_counts (user_id, camera_id, line_id, zone_id, minute, label, kind, count)
    select l.user_id, l.camera_id, l.id, null, t.minute, 'person', k.kind, 1 + (random() * 3)::int
    from vision_lines l, ${minutes} t, (values ('in'), ('out')) k(kind)
    where l.user_id = ${userId}::uuid and ${kept(sql`l.id::text || t.minute::text || k.kind`, shape.density)} and t.minute < now()`.execute(db);
  await sql`insert into vision_counts (user_id, camera_id, line_id, zone_id, minute, label, kind, count)
    select z.user_id, z.camera_id, null, z.id, t.minute, 'person', k.kind, 1 + (random() * 2)::int
    from vision_zones z, ${minutes} t, (values ('entered'), ('exited'), ('loitering')) k(kind)
    where z.user_id = ${userId}::uuid and ${kept(sql`z.id::text || t.minute::text || k.kind`, sql`${shape.density} * case when k.kind = 'loitering' then 0.1 else 1 end`)} and t.minute < now()`.execute(
    db,
  );
  await sql`insert into vision_dwell_hours (user_id, camera_id, zone_id, hour, label, bucket, count)
    select user_id, camera_id, zone_id, date_trunc('hour', minute, 'UTC'), label, (random() * 8)::int, sum(count)
    from vision_counts where user_id = ${userId}::uuid and kind = 'exited' group by 1, 2, 3, 4, 5, 6
    on conflict do nothing`.execute(db);
  await sql`insert into vision_dwell_days (user_id, camera_id, zone_id, day, label, bucket, count)
    select user_id, camera_id, zone_id, (hour at time zone 'UTC')::date, label, bucket, sum(count)
    from vision_dwell_hours where user_id = ${userId}::uuid group by 1, 2, 3, 4, 5, 6`.execute(db);
  return cameras;
}

/** Rollups for everything seeded, in bulk (the same sums the job computes; the job's own cost is measured below). */
export async function bulkRollups(db: DB, userId: string, timeZone: string): Promise<void> {
  await sql`insert into vision_count_hours (user_id, camera_id, line_id, zone_id, hour, label, kind, count)
    select user_id, camera_id, line_id, zone_id, date_trunc('hour', minute, 'UTC'), label, kind, sum(count)
    from vision_counts where user_id = ${userId}::uuid group by 1, 2, 3, 4, 5, 6, 7`.execute(db);
  await sql`insert into vision_count_days (user_id, camera_id, line_id, zone_id, day, label, kind, count, time_zone)
    select user_id, camera_id, line_id, zone_id, (minute at time zone ${timeZone})::date, label, kind, sum(count), ${timeZone}
    from vision_counts where user_id = ${userId}::uuid group by 1, 2, 3, 4, 5, 6, 7`.execute(db);
}

/** The report's main figures (traffic by day or hour, totals, the week's hours, each line and zone) from the raw minutes. */
async function fromMinutes(db: DB, userId: string, from: Date, to: Date, step: "day" | "hour"): Promise<void> {
  const bucket = step === "day" ? sql`(minute at time zone ${TIME_ZONE})::date::text` : sql`date_trunc('hour', minute, 'UTC')::text`;
  await Promise.all([
    sql`select ${bucket} as b, sum(count) filter (where kind = 'in'), sum(count) filter (where kind = 'out') from vision_counts
      where user_id = ${userId}::uuid and minute >= ${from} and minute < ${to} and line_id is not null group by 1`.execute(db),
    sql`select extract(isodow from minute at time zone ${TIME_ZONE}), extract(hour from minute at time zone ${TIME_ZONE}), sum(count) from vision_counts
      where user_id = ${userId}::uuid and minute >= ${from} and minute < ${to} and kind = 'in' group by 1, 2`.execute(db),
    sql`select coalesce(line_id, zone_id), kind, sum(count) from vision_counts where user_id = ${userId}::uuid and minute >= ${from} and minute < ${to} group by 1, 2`.execute(db),
    sql`select sum(count) from vision_counts where user_id = ${userId}::uuid and minute >= ${new Date(from.getTime() - (to.getTime() - from.getTime()))} and minute < ${to} and kind = 'in'`.execute(
      db,
    ),
  ]);
}

export async function runInsightsBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-insights") });
  // No query timeout (db/index.ts bounds each query at 15 s): seeding a year takes longer than that.
  const db: DB = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: postgres(databaseUrl, { max: 4, onnotice: () => {} }) }) });
  let appRunning = true;
  try {
    const users: { id: string; cookie: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const signup = await fetch(`${app.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: `manager_${i}`, password: "bench-password" }),
      });
      users.push({ id: ((await signup.json()) as { id: string }).id, cookie: signup.headers.getSetCookie()[0]!.split(";")[0]! });
    }
    const seedStarted = performance.now();
    const [main, ...others] = users;
    const cameras = await seedUser(db, main!.id, { cameras: 5, lines: 20, zones: 10, density: 0.2 });
    for (const other of others) await seedUser(db, other.id, { cameras: 2, lines: 4, zones: 2, density: 0.05 });
    await bulkRollups(db, main!.id, TIME_ZONE);
    for (const other of others) await bulkRollups(db, other.id, "UTC");
    const site = await fetch(`${app.url}/api/insights/sites`, {
      method: "POST",
      headers: { cookie: main!.cookie, origin: app.url, "content-type": "application/json" },
      body: JSON.stringify({ name: "Flagship store", timeZone: TIME_ZONE, cameraIds: cameras, capacity: 400 }),
    });
    const { id: siteId } = (await site.json()) as { id: string };
    // The site's time zone books day rebuilds (the seeded days are already London's) and its creation the build of
    // its summed hours: let them finish first.
    await sql`vacuum analyze`.execute(db);
    for (;;) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from graphile_worker.jobs where task_identifier in ('insights_rebuild_days', 'insights_rebuild_site')`.execute(
        db,
      );
      if (Number(rows[0]!.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { rows: sizes } = await sql<{ minutes: string; hours: string; days: string; events: string }>`
      select (select count(*) from vision_counts) as minutes, (select count(*) from vision_count_hours) as hours,
        (select count(*) from vision_count_days) as days, (select sum(count) from vision_counts where user_id = ${main!.id}::uuid) as events`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const now = new Date();
    const today = localDate(now, TIME_ZONE);
    const yearAgo = localDate(new Date(now.getTime() - 364 * 86_400_000), TIME_ZONE);
    const weekAgo = localDate(new Date(now.getTime() - 6 * 86_400_000), TIME_ZONE);
    const views = [
      { name: "a year by day", from: yearAgo, to: today, resolution: "day" as const, span: 365 },
      { name: "a week by hour", from: weekAgo, to: today, resolution: "hour" as const, span: 7 },
    ];
    const rows: Array<Array<string | number>> = [];
    for (const view of views) {
      const url = `${app.url}/api/insights/report?siteId=${siteId}&from=${view.from}&to=${view.to}&resolution=${view.resolution}`;
      const probe = await fetch(url, { headers: { cookie: main!.cookie } });
      if (probe.status !== 200) throw new Error(`report answered ${probe.status}: ${await probe.text()}`);
      const http = await timed(async () => (await fetch(url, { headers: { cookie: main!.cookie } })).text());
      const queries = await timed(() => buildReport(db, main!.id, { siteId, from: view.from, to: view.to, resolution: view.resolution }));
      const from = new Date(now.getTime() - view.span * 86_400_000);
      const raw = await timed(() => fromMinutes(db, main!.id, from, now, view.resolution === "day" ? "day" : "hour"));
      rows.push([
        view.name,
        `${ms(http.p50)} / ${ms(http.p99)}`,
        `${ms(queries.p50)} / ${ms(queries.p99)}`,
        `${ms(raw.p50)} / ${ms(raw.p99)}`,
        `${(raw.p50 / queries.p50).toFixed(1)}×`,
        verdict(http.p50 <= 100 && http.p99 <= 300),
      ]);
      console.error(`insights: ${rows.at(-1)!.join(" | ")}`);
    }

    // The rollup job's cost: a week of the main user's hours recomputed, against writing those events' minutes. The app
    // stops first, so its own rollup job takes no share of the work being timed.
    await app.stop();
    appRunning = false;
    const weekStart = new Date(Math.floor((now.getTime() - 7 * 86_400_000) / 3600_000) * 3600_000);
    const { rows: weekEvents } = await sql<{ events: string; minutes: string }>`
      select sum(count) as events, count(*) as minutes from vision_counts where user_id = ${main!.id}::uuid and minute >= ${weekStart}`.execute(db);
    const events = Number(weekEvents[0]!.events);
    const hours = Array.from({ length: Math.ceil((now.getTime() - weekStart.getTime()) / 3600_000) }, (_, i) => new Date(weekStart.getTime() + i * 3600_000));
    for (const cameraId of cameras) await markDirtyHours(db, cameraId, hours);
    const rollupStarted = performance.now();
    await runRollups(db);
    const rollupMs = performance.now() - rollupStarted;
    // The same minutes written again as events batches write them (an upsert per minute, class and kind).
    await sql`create unlogged table week_minutes as select * from vision_counts where user_id = ${main!.id}::uuid and minute >= ${weekStart}`.execute(db);
    const writeStarted = performance.now();
    await sql`insert into vision_counts select * from week_minutes on conflict (camera_id, coalesce(line_id, zone_id), minute, label, kind) do update set count = excluded.count`.execute(
      db,
    );
    const writeMs = performance.now() - writeStarted;

    return [
      "## Insights",
      "",
      `${Number(sizes[0]!.minutes).toLocaleString("en")} per-minute rows (a year for 20 lines and 10 zones of one user, 4 lines and 2 zones of each of 9 others), ${Number(sizes[0]!.hours).toLocaleString("en")} hourly and ${Number(sizes[0]!.days).toLocaleString("en")} daily rollup rows; seeded in ${seedSeconds.toFixed(0)} s. ${RUNS} runs each, p50 / p99.`,
      "",
      table(
        [
          "report (site in Europe/London)",
          "GET /api/insights/report",
          "its queries (in-process)",
          "the same figures from the raw minutes",
          "raw ÷ rollups",
          "target p50 ≤ 100 ms, p99 ≤ 300 ms",
        ],
        rows,
      ),
      "",
      table(
        ["rollup job", "events", "time", "per 1,000 events", "baseline: writing those minutes", "per 1,000 events"],
        [[`a week of hours, ${cameras.length} cameras`, events.toLocaleString("en"), ms(rollupMs), ms((rollupMs / events) * 1000), ms(writeMs), ms((writeMs / events) * 1000)]],
      ),
    ].join("\n");
  } finally {
    await db.destroy();
    if (appRunning) await app.stop();
    await pg.stop();
  }
}
