// Timeline benchmarks (the second half of `npm run bench -- search`): 1,000,000 events over 90 days on 8 cameras of one user among 10
// users (realistic types, classes, line and zone names, Moondream-like descriptions), then the first page and filtered
// pages through the real HTTP API (GET /api/timeline), each against the same page's SQL run bare on a raw connection in
// the same run; and what recording costs: events inserted in batches with the timeline's indexes and tsvector, against
// the same rows into a table without them.
import { Kysely, sql } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import type { DB } from "#db/index";
import type { Database } from "#db/schema";
import { eventsPage, insertEvents, SEARCH_WALK, type EventFilter, type NewTimelineEvent } from "#server/timeline/queries";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { ms, table, timeRuns, verdict } from "./lib";

const RUNS = Number(process.env.BENCH_TIMELINE_RUNS ?? 60);
const MAIN_EVENTS = Number(process.env.BENCH_TIMELINE_EVENTS ?? 1_000_000);
const OTHER_EVENTS = 20_000;
const PAGE = 50;

const TYPES = [
  "line.crossed",
  "line.crossed",
  "line.crossed",
  "zone.entered",
  "zone.entered",
  "zone.exited",
  "zone.exited",
  "zone.loitering",
  "photo.auto_captured",
  "monitor.result",
  "monitor.error",
  "alert.sent",
];
const LABELS = ["person", "person", "person", "car", "car", "bicycle", "dog", "truck", "cat", "motorcycle", "bus", "backpack"];
const TARGETS = ["Front gate", "Back door", "Loading bay", "Till", "Car park entrance", "Fence", "Lobby", "Stairs"];
const SUBJECTS = ["A man", "A woman", "A child", "Two people", "A delivery driver", "An older man", "A teenager", "A courier", "A cyclist", "A jogger"];
const DETAILS = [
  "in a red jacket",
  "in a blue coat",
  "with a backpack",
  "carrying a parcel",
  "with a dog on a lead",
  "wearing a yellow hi-vis vest",
  "holding an umbrella",
  "pushing a pram",
  "in a grey hoodie",
  "with a shopping bag",
];
const ACTIONS = [
  "walks towards the door",
  "waits by the gate",
  "crosses the car park",
  "looks at the camera",
  "leaves through the side exit",
  "rings the bell",
  "unloads boxes from a van",
  "stands near the fence",
];

const timed = (run: () => Promise<unknown>) => timeRuns(run, RUNS);

const textArray = (values: readonly string[]) => sql`${[...values]}::text[]`;

/** `count` events over the last 90 days on the user's cameras, picked from the lists above by generate_series. */
export async function seedEvents(db: DB, userId: string, cameras: readonly { id: string; name: string }[], count: number): Promise<void> {
  // Each row's picks independent of each other (random(), not i modulo: moduli would tie class, type and words together).
  const pick = (list: readonly string[]) => sql`(${textArray(list)})[1 + floor(random() * ${list.length})::int]`;
  await sql`
    insert into timeline_events (user_id, camera_id, camera_name, type, label, target_name, photo_id, description, detail, occurred_at)
    select ${userId}::uuid, c.id, c.name, t.type, ${pick(LABELS)}, ${pick(TARGETS)}, null,
      case when random() < 0.35 then ${pick(SUBJECTS)} || ' ' || ${pick(DETAILS)} || ' ' || ${pick(ACTIONS)} end,
      jsonb_build_object('trackId', i % 1000),
      date_trunc('milliseconds', now() - make_interval(secs => (i::double precision / ${count}) * 90 * 86400 + random()))
    from generate_series(1, ${count}) i
    cross join lateral (select ${pick(TYPES)} as type, i as n) t
    cross join lateral (select (${[...cameras.map((camera) => camera.id)]}::uuid[])[1 + (i % ${cameras.length})] as id,
      (${textArray(cameras.map((camera) => camera.name))})[1 + (i % ${cameras.length})] as name) c`.execute(db);
  const words = new Set(
    [...LABELS, ...TARGETS, ...SUBJECTS, ...DETAILS, ...ACTIONS, ...cameras.map((c) => c.name)]
      .join(" ")
      .toLowerCase()
      .split(/[^a-z0-9]+/),
  );
  const vocabulary = [...words].filter((word) => word.length >= 3);
  await sql`insert into timeline_words (user_id, word) select ${userId}::uuid, unnest(${vocabulary}::text[]) on conflict do nothing`.execute(db);
}

export async function runTimelineBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-timeline") });
  // No query timeout (db/index.ts bounds each query at 15 s): seeding a million rows takes longer than that.
  const raw = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const db: DB = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: raw }) });
  try {
    const users: { id: string; cookie: string; cameras: { id: string; name: string }[] }[] = [];
    for (let i = 0; i < 10; i++) {
      const signup = await fetch(`${app.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: `reviewer_${i}`, password: "bench-password" }),
      });
      const id = ((await signup.json()) as { id: string }).id;
      const cameraCount = i === 0 ? 8 : 2;
      const cameras = (
        await sql<{ id: string; name: string }>`insert into cameras (user_id, name)
          select ${id}::uuid, (array['Front door', 'Back yard', 'Warehouse', 'Car park', 'Shop floor', 'Garden', 'Side gate', 'Office'])[n]
          from generate_series(1, ${cameraCount}) n returning id, name`.execute(db)
      ).rows;
      users.push({ id, cookie: signup.headers.getSetCookie()[0]!.split(";")[0]!, cameras });
    }
    const seedStarted = performance.now();
    const [main, ...others] = users;
    await seedEvents(db, main!.id, main!.cameras, MAIN_EVENTS);
    for (const other of others) await seedEvents(db, other.id, other.cameras, OTHER_EVENTS);
    await sql`vacuum analyze timeline_events`.execute(db);
    await sql`analyze timeline_words`.execute(db);
    const { rows: sizes } = await sql<{ events: string; size: string }>`
      select count(*) as events, pg_size_pretty(pg_total_relation_size('timeline_events')) as size from timeline_events`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const camera = main!.cameras[2]!;
    const views: { name: string; query: string; filter: EventFilter }[] = [
      { name: "first page", query: "", filter: {} },
      {
        name: "camera + type + q",
        query: `cameraId=${camera.id}&type=line.crossed&q=${encodeURIComponent("red jacket")}`,
        filter: { cameraIds: [camera.id], types: ["line.crossed"], q: "red jacket" },
      },
      { name: "q: a phrase and an exclusion", query: `q=${encodeURIComponent('"blue coat" -dog')}`, filter: { q: '"blue coat" -dog' } },
      { name: "q with a typo (corrected)", query: "q=parcl", filter: { q: "parcel" } },
      { name: "class + type, a week ago", query: "", filter: { label: "bicycle", types: ["zone.entered"] } },
    ];
    const weekAgo = new Date(Date.now() - 7 * 86_400_000);
    views[4]!.query = `label=bicycle&type=zone.entered&to=${encodeURIComponent(weekAgo.toISOString())}`;
    views[4]!.filter.to = weekAgo;

    const rows: Array<Array<string | number>> = [];
    for (const view of views) {
      const url = `${app.url}/api/timeline?limit=${PAGE}${view.query ? `&${view.query}` : ""}`;
      const probe = await fetch(url, { headers: { cookie: main!.cookie } });
      if (probe.status !== 200) throw new Error(`timeline answered ${probe.status}: ${await probe.text()}`);
      const found = ((await probe.json()) as { events: unknown[] }).events.length;
      const http = await timed(async () => (await fetch(url, { headers: { cookie: main!.cookie } })).text());
      // The same statements the app sends (a search: the newest rows first, the index when that page is short).
      const walk = view.filter.q ? eventsPage(main!.id, view.filter, PAGE + 1, SEARCH_WALK).compile(db) : null;
      const full = eventsPage(main!.id, view.filter, PAGE + 1).compile(db);
      const bare = await timed(async () => {
        if (walk && (await raw.unsafe(walk.sql, walk.parameters as never[], { prepare: true })).length > PAGE) return;
        await raw.unsafe(full.sql, full.parameters as never[], { prepare: true });
      });
      rows.push([view.name, found, `${ms(http.p50)} / ${ms(http.p99)}`, `${ms(bare.p50)} / ${ms(bare.p99)}`, ms(http.p50 - bare.p50), verdict(http.p50 <= 20)]);
      console.error(`timeline: ${rows.at(-1)!.join(" | ")}`);
    }

    // Recording: batches of 20 events (a studio's second) with the indexes and the tsvector, against a bare table.
    const batches = 500;
    const batch = (n: number): NewTimelineEvent[] =>
      Array.from({ length: 20 }, (_, i) => ({
        user_id: main!.id,
        camera_id: camera.id,
        camera_name: camera.name,
        type: "line.crossed" as const,
        label: LABELS[(n + i) % LABELS.length]!,
        target_name: TARGETS[(n + i) % TARGETS.length]!,
        photo_id: null,
        description: i % 3 === 0 ? `${SUBJECTS[n % SUBJECTS.length]} ${DETAILS[i % DETAILS.length]} ${ACTIONS[(n + i) % ACTIONS.length]}` : null,
        detail: { trackId: i },
        occurred_at: new Date(),
      }));
    const indexedStarted = performance.now();
    for (let n = 0; n < batches; n++) await insertEvents(db, batch(n));
    const indexedMs = performance.now() - indexedStarted;
    await sql`create table timeline_bare (like timeline_events including defaults)`.execute(db);
    await sql`alter table timeline_bare alter column search drop not null`.execute(db);
    const bareStarted = performance.now();
    for (let n = 0; n < batches; n++)
      await sql`insert into timeline_bare (user_id, camera_id, camera_name, type, label, target_name, photo_id, description, detail, occurred_at)
        select * from jsonb_to_recordset(${JSON.stringify(batch(n))}::text::jsonb) as r(user_id uuid, camera_id uuid, camera_name text, type text, label text,
          target_name text, photo_id uuid, description text, detail jsonb, occurred_at timestamptz)`.execute(db);
    const bareMs = performance.now() - bareStarted;
    const perThousand = (total: number) => ms((total / (batches * 20)) * 1000);

    return [
      "## Timeline",
      "",
      `${Number(sizes[0]!.events).toLocaleString("en")} events (${MAIN_EVENTS.toLocaleString("en")} over 90 days on 8 cameras of one user, ${OTHER_EVENTS.toLocaleString("en")} for each of 9 others), ${sizes[0]!.size} with indexes; seeded in ${seedSeconds.toFixed(0)} s. Pages of ${PAGE}, ${RUNS} runs each, p50 / p99.`,
      "",
      table(["page of the main user", "events", "GET /api/timeline", "baseline: its SQL bare on a raw connection", "HTTP + app over SQL (p50)", "target p50 ≤ 20 ms"], rows),
      "",
      table(
        ["recording", "events", "with the timeline's indexes, tsvector and vocabulary", "per 1,000 events", "baseline: a table without them", "per 1,000 events"],
        [[`${batches} batches of 20`, (batches * 20).toLocaleString("en"), ms(indexedMs), perThousand(indexedMs), ms(bareMs), perThousand(bareMs)]],
      ),
    ].join("\n");
  } finally {
    await db.destroy();
    await app.stop();
    await pg.stop();
  }
}
