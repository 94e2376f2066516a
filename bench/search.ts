// Library search benchmarks (`npm run bench -- search`): 100,000 photos with realistic captions, descriptions,
// labels, cameras and stories for one user among 10 users (seeded in SQL through the real triggers; no blobs), then
// GET /api/photos/search with words and facets through the real HTTP API, against the plain newest-first list
// (GET /api/photos) measured in the same run; and what the search triggers and GIN index cost on insert.
import { Kysely, sql } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import type { DB } from "#db/index";
import type { Database } from "#db/schema";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { ms, table, timeRuns, verdict } from "./lib";

const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 60);
const MAIN_PHOTOS = Number(process.env.BENCH_SEARCH_PHOTOS ?? 100_000);
const OTHER_PHOTOS = 2_000;
const INSERTS = 2_000;

const timed = (run: () => Promise<unknown>) => timeRuns(run, RUNS);

const SUBJECTS = ["dog", "cat", "person", "delivery van", "car", "bicycle", "fox", "deer", "package", "truck", "child", "cyclist", "bird", "squirrel"];
const ACTIONS = ["walks past", "waits at", "runs across", "sits near", "is parked at", "carries a box to", "stops at", "sniffs around", "leaves from", "looks into"];
const PLACES = ["the back door", "the driveway", "the front gate", "the garden", "the porch", "the street", "the parking lot", "the loading dock", "the side path", "the garage"];
const WHEN = ["at dusk", "in the rain", "at night", "in bright sun", "in fog", "early in the morning", "at noon", "under the floodlight", "in the snow", "on a windy afternoon"];
const LABELS = ["person", "car", "dog", "cat", "bicycle", "truck", "bird", "package"];

/**
 * `count` photos of one user: captions from the word lists, 0–4 boxes (the subject's class, then people), 8 cameras,
 * one in five in a story, two in five auto-captured, one every 5 minutes back from now.
 */
export async function seedPhotos(db: DB, userId: string, count: number): Promise<{ cameras: string[] }> {
  const cameras = (
    await sql<{ id: string }>`insert into cameras (user_id, name)
      select ${userId}::uuid, (array['Back door', 'Driveway', 'Front gate', 'Garden', 'Porch', 'Street', 'Loading dock', 'Garage'])[i]
      from generate_series(1, 8) i returning id`.execute(db)
  ).rows.map((row) => row.id);
  const stories = (
    await sql<{ id: string }>`insert into stories (user_id, title, created_at)
      select ${userId}::uuid, 'Story ' || i || ': ' || (array['Night watch', 'Deliveries', 'Garden visitors', 'Street life', 'Weekend'])[1 + i % 5], now() - make_interval(days => i)
      from generate_series(1, 40) i returning id`.execute(db)
  ).rows.map((row) => row.id);
  const pick = (list: string[], seed: string) => sql`(${sql.val(list)}::text[])[(1 + (${sql.raw(seed)})::bigint % ${list.length})::int]`;
  // Batches of 10,000: each row goes through the search trigger as an app insert does.
  for (let start = 0; start < count; start += 10_000) {
    const end = Math.min(count, start + 10_000);
    await sql`
      insert into photos (user_id, camera_id, camera_name, story_id, capture_mode, auto_capture, detection_query, detection_boxes,
        width, height, bytes, mime_type, image_key, thumbnail_key, etag, description, created_at)
      select ${userId}::uuid, c.id, c.name,
        case when g % 5 = 0 then (${sql.val(stories)}::uuid[])[1 + g % ${stories.length}] end,
        (array['single', 'single', 'single', 'burst', 'timelapse'])[1 + g % 5], g % 5 < 2,
        ${pick(SUBJECTS, "g::bigint * 7919")},
        (select coalesce(jsonb_agg(jsonb_build_object('x_min', 0.1, 'y_min', 0.1, 'x_max', 0.4, 'y_max', 0.6, 'label',
          case when b = 1 and ${pick(SUBJECTS, "g::bigint * 7919")} = any(${sql.val(LABELS)}::text[]) then ${pick(SUBJECTS, "g::bigint * 7919")} else 'person' end)), '[]'::jsonb)
          from generate_series(1, g % 5) b),
        1920, 1080, 250000, 'image/jpeg', 'bench/' || g, 'bench/t' || g, 'e' || g,
        'A ' || ${pick(SUBJECTS, "g::bigint * 7919")} || ' ' || ${pick(ACTIONS, "g / 3")} || ' ' || ${pick(PLACES, "g / 29")} || ' ' || ${pick(WHEN, "g / 7")} || '.',
        now() - make_interval(secs => g * 300)
      from generate_series(${start}::int, ${end - 1}::int) g
      cross join lateral (select id, name from cameras where id = (${sql.val(cameras)}::uuid[])[1 + g % 8]) c`.execute(db);
  }
  return { cameras };
}

interface Probe {
  name: string;
  query: (cameras: string[]) => string;
}

const PROBES: Probe[] = [
  { name: "one word: dog", query: () => "q=dog" },
  { name: "words: delivery van rain", query: () => "q=delivery+van+rain" },
  { name: 'phrase and exclusion: "back door" -night', query: () => "q=%22back+door%22+-night" },
  { name: "typo: bicyle", query: () => "q=bicyle" },
  { name: "word + camera + auto-captured", query: (cameras) => `q=fox&cameraId=${cameras[2]}&autoCapture=true` },
  { name: "word + people ≥ 2 + dates", query: () => `q=porch&minPeople=2&from=${new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)}` },
  { name: "label facet only: cat", query: () => "label=cat" },
];

export async function runSearchBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-search") });
  // No query timeout (db/index.ts bounds each query at 15 s): seeding takes longer than that.
  const db: DB = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: postgres(databaseUrl, { max: 4, onnotice: () => {} }) }) });
  try {
    const users: { id: string; cookie: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const signup = await fetch(`${app.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: `photographer_${i}`, password: "bench-password" }),
      });
      users.push({ id: ((await signup.json()) as { id: string }).id, cookie: signup.headers.getSetCookie()[0]!.split(";")[0]! });
    }
    const seedStarted = performance.now();
    const [main, ...others] = users;
    const { cameras } = await seedPhotos(db, main!.id, MAIN_PHOTOS);
    for (const other of others) await seedPhotos(db, other.id, OTHER_PHOTOS);
    await sql`vacuum analyze`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { rows: sizes } = await sql<{ photos: string; words: string }>`select (select count(*) from photos) as photos, (select count(*) from search_words) as words`.execute(db);

    const get = async (path: string) => {
      const response = await fetch(`${app.url}${path}`, { headers: { cookie: main!.cookie } });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<{ total?: number }>;
    };
    const baseline = await timed(() => get("/api/photos?limit=30"));
    const rows: Array<Array<string | number>> = [];
    const all: { p50: number; p99: number }[] = [];
    for (const probe of PROBES) {
      const path = `/api/photos/search?limit=30&${probe.query(cameras)}`;
      const { total } = await get(path);
      const result = await timed(() => get(path));
      all.push(result);
      rows.push([probe.name, (total ?? 0).toLocaleString("en"), `${ms(result.p50)} / ${ms(result.p99)}`, `${(result.p50 / baseline.p50).toFixed(1)}×`, verdict(result.p50 <= 20)]);
      console.error(`search: ${rows.at(-1)!.join(" | ")}`);
    }
    // A second page: the cursor's keyset and the first page's moment.
    const first = (await get("/api/photos/search?limit=30&q=dog")) as { nextCursor?: string };
    const second = await timed(() => get(`/api/photos/search?limit=30&q=dog&cursor=${first.nextCursor}`));
    rows.push(["second page of dog", "", `${ms(second.p50)} / ${ms(second.p99)}`, `${(second.p50 / baseline.p50).toFixed(1)}×`, verdict(second.p50 <= 20)]);

    // Insert cost: single-row inserts as the app makes them, with the search triggers and GIN index, then without.
    const insertRows = async (label: string) => {
      const started = performance.now();
      for (let i = 0; i < INSERTS; i++) {
        await sql`insert into photos (user_id, camera_id, camera_name, capture_mode, auto_capture, detection_query, detection_boxes, width, height, bytes, mime_type, image_key, thumbnail_key, etag, description)
          values (${main!.id}::uuid, ${cameras[i % 8]}::uuid, 'Porch', 'single', true, 'dog', ${JSON.stringify([{ x_min: 0.1, y_min: 0.1, x_max: 0.5, y_max: 0.5, label: "dog" }])}::jsonb,
            1920, 1080, 250000, 'image/jpeg', ${`${label}/${i}`}, ${`${label}/t${i}`}, 'e', ${`A dog ${ACTIONS[i % ACTIONS.length]} ${PLACES[i % PLACES.length]} ${WHEN[i % WHEN.length]}, photo ${i}.`})`.execute(
          db,
        );
      }
      return (INSERTS / (performance.now() - started)) * 1000;
    };
    const withSearch = await insertRows("with");
    await sql`alter table photos disable trigger photos_search`.execute(db);
    await sql`drop index photos_search_idx`.execute(db);
    const without = await insertRows("without");

    const p50s = all.map((r) => r.p50).sort((a, b) => a - b);
    return [
      "## Search",
      "",
      `${Number(sizes[0]!.photos).toLocaleString("en")} photos (${MAIN_PHOTOS.toLocaleString("en")} of one user, ${OTHER_PHOTOS.toLocaleString("en")} of each of 9 others), ${Number(sizes[0]!.words).toLocaleString("en")} vocabulary words; seeded through the triggers in ${seedSeconds.toFixed(0)} s. Each search answers a 30-photo page with the total, every facet's counts and highlighted captions. ${RUNS} runs each, p50 / p99, over HTTP.`,
      "",
      `Baseline, the plain newest-first list GET /api/photos?limit=30: ${ms(baseline.p50)} / ${ms(baseline.p99)}. Median of the searches' p50: ${ms(p50s[Math.floor(p50s.length / 2)]!)}.`,
      "",
      table(["GET /api/photos/search", "matches", "p50 / p99", "÷ baseline p50", "target p50 ≤ 20 ms"], rows),
      "",
      table(
        ["single-row photo inserts", "rows per second", "cost"],
        [
          ["with the search trigger, vocabulary and GIN index", withSearch.toFixed(0), `${((without / withSearch - 1) * 100).toFixed(0)}% slower`],
          ["without them (baseline)", without.toFixed(0), ""],
        ],
      ),
    ].join("\n");
  } finally {
    await db.destroy();
    await app.stop();
    await pg.stop();
  }
}
