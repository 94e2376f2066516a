// Scale benchmark: requests/s of a mixed studio load against the app with WEB_CONCURRENCY=1 and =2 on this
// machine, both apps on one PostgreSQL, measured in alternating rounds (1, 2, 2, 1) of the same run so drift in
// the machine's load falls on both alike; then the issue's other fast-path figures from their own groups.
import autocannon from "autocannon";
import postgres from "postgres";
import { noisyJpegBytes } from "../tests/support/images";
import { startApp, startTestPostgres, tempDir, type TestApp, type TestPostgres } from "../tests/support/stack";
import { runAutomationBenchmarks } from "./automation";
import { authMe } from "./foundation";
import { machineLoad, ms, postmasterPid, processCpuMs, startFakeMoondreamProcess, table, treeCpu, treeCpuBetween } from "./lib";
import { throughput } from "./marketing";
import { runVisionBenchmarks, signUpWithOwnKey } from "./vision";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** One connection per signed-in user, each going through the studio mix in a loop. */
const USERS = 24;
const PHOTOS_PER_USER = 200;
const MOONDREAM_LATENCY_MS = 50;

/** The mix, per 40 requests of one user: what a studio open on a camera asks for, and now and then a capture and an AI call. */
const MIX = { me: 17, cameras: 10, photos: 10, detect: 2, upload: 1 } as const;

interface Round {
  concurrency: number;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU ms of the app's processes (primary and workers), of PostgreSQL (all backends) and of this process (the load generator). */
  appCpu: number;
  pgCpu: number;
  loaderCpu: number;
  load: string;
}

async function seedUsers(app: TestApp, databaseUrl: string, jpegDataUrl: string): Promise<{ cookies: string[]; postgresPid: number }> {
  const cookies: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const cookie = await signUpWithOwnKey(app, `studio_${i}`);
    const headers = { cookie, "content-type": "application/json", origin: app.url };
    const camera = await fetch(`${app.url}/api/cameras`, { method: "POST", headers, body: JSON.stringify({ name: `Gate ${i}`, model: "Webcam" }) });
    if (camera.status !== 201) throw new Error(`adding a camera failed: ${camera.status} ${await camera.text()}`);
    const photo = await fetch(`${app.url}/api/photos`, { method: "POST", headers, body: uploadBody(jpegDataUrl) });
    if (photo.status !== 201) throw new Error(`upload failed: ${photo.status} ${await photo.text()}`);
    cookies.push(cookie);
  }
  // Each user's gallery: copies of their one real photo's row (lists read rows, not blobs).
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into photos (user_id, capture_mode, auto_capture, detection_query, detection_boxes, video_width, video_height, frame_rate, width, height, bytes, mime_type, image_key, thumbnail_key, etag, created_at)
      select user_id, capture_mode, i % 7 = 0, case when i % 7 = 0 then 'person' end,
             case when i % 7 = 0 then '[{"x_min":0.1,"y_min":0.2,"x_max":0.4,"y_max":0.9}]'::jsonb end,
             video_width, video_height, frame_rate, width, height, bytes, mime_type, image_key, thumbnail_key, etag, now() - make_interval(secs => i)
      from photos, generate_series(1, ${PHOTOS_PER_USER - 1}) as i
    `;
    await sql`analyze`;
    return { cookies, postgresPid: await postmasterPid(sql) };
  } finally {
    await sql.end();
  }
}

function uploadBody(jpegDataUrl: string): string {
  return JSON.stringify({ imageData: jpegDataUrl, captureMode: "single", videoWidth: 1280, videoHeight: 720, frameRate: 30 });
}

/** The mix as one autocannon request list; each connection takes a user's cookie on its first request. */
function mixedRequests(cookies: string[], origin: string, photoDataUrl: string, aiDataUrl: string): autocannon.Request[] {
  let nextUser = 0;
  const asUser = (request: autocannon.Request): autocannon.Request => ({
    ...request,
    setupRequest: (req: autocannon.Request, context: { cookie?: string }) => {
      context.cookie ??= cookies[nextUser++ % cookies.length]!;
      return { ...req, headers: { ...req.headers, cookie: context.cookie } };
    },
  });
  const json = { "content-type": "application/json", origin };
  const kinds: Record<keyof typeof MIX, autocannon.Request> = {
    me: { method: "GET", path: "/api/auth/me" },
    cameras: { method: "GET", path: "/api/cameras" },
    photos: { method: "GET", path: "/api/photos?limit=50" },
    detect: { method: "POST", path: "/api/moondream/detect", headers: json, body: JSON.stringify({ imageData: aiDataUrl, object: "person" }) },
    upload: { method: "POST", path: "/api/photos", headers: json, body: uploadBody(photoDataUrl) },
  };
  // Spread through the cycle rather than in runs, as a user's studio would interleave them.
  const cycle: (keyof typeof MIX)[] = [];
  const left = { ...MIX };
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  for (let i = 0; i < total; i++) {
    const kind = (Object.keys(left) as (keyof typeof MIX)[]).sort((a, b) => left[b] / MIX[b] - left[a] / MIX[a])[0]!;
    left[kind]--;
    cycle.push(kind);
  }
  return cycle.map((kind) => asUser(kinds[kind]));
}

async function round(app: TestApp, postgresPid: number, concurrency: number, requests: autocannon.Request[], seconds: number): Promise<Round> {
  const appBefore = treeCpu(app.process.pid!);
  const pgBefore = treeCpu(postgresPid);
  const loaderBefore = processCpuMs("self");
  const result = await autocannon({ url: app.url, connections: USERS, duration: seconds, requests });
  const appCpu = treeCpuBetween(appBefore, treeCpu(app.process.pid!));
  const pgCpu = treeCpuBetween(pgBefore, treeCpu(postgresPid));
  return {
    concurrency,
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    appCpu: appCpu.self + appCpu.children,
    pgCpu: pgCpu.self + pgCpu.children,
    loaderCpu: processCpuMs("self") - loaderBefore,
    load: machineLoad(),
  };
}

function sum(rounds: Round[]) {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  return {
    requestsPerSecond: requests / seconds,
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    failures: rounds.reduce((n, r) => n + r.errors + r.non2xx, 0),
    appCpuPerRequest: rounds.reduce((n, r) => n + r.appCpu, 0) / requests,
    pgCpuPerRequest: rounds.reduce((n, r) => n + r.pgCpu, 0) / requests,
    /** Cores kept busy on average: the app, PostgreSQL, the load generator. */
    cores: [(r: Round) => r.appCpu, (r: Round) => r.pgCpu, (r: Round) => r.loaderCpu].map((cpu) => rounds.reduce((n, r) => n + cpu(r), 0) / 1000 / seconds),
    loaderCpuPerRequest: rounds.reduce((n, r) => n + r.loaderCpu, 0) / requests,
    requests,
  };
}

async function mixedLoad(pg: TestPostgres, moondreamUrl: string, apps: Map<number, TestApp>): Promise<string> {
  const photoDataUrl = `data:image/jpeg;base64,${(await noisyJpegBytes(1280, 720)).toString("base64")}`;
  const aiDataUrl = `data:image/jpeg;base64,${(await noisyJpegBytes(1024, 576)).toString("base64")}`;
  const rounds: Round[] = [];
  const lists = new Map<number, autocannon.Request[]>();
  let postgresPid = 0;
  for (const concurrency of [1, 2]) {
    const databaseUrl = await pg.createDatabase();
    const app = await startApp({
      DATABASE_URL: databaseUrl,
      DATA_DIR: tempDir(`bench-scale-${concurrency}`),
      WEB_CONCURRENCY: String(concurrency),
      MOONDREAM_ENDPOINT: moondreamUrl,
    });
    apps.set(concurrency, app);
    const seeded = await seedUsers(app, databaseUrl, photoDataUrl);
    postgresPid = seeded.postgresPid;
    lists.set(concurrency, mixedRequests(seeded.cookies, app.url, photoDataUrl, aiDataUrl));
    await round(app, postgresPid, concurrency, lists.get(concurrency)!, 2); // warm-up (connections, JIT), not counted
  }
  for (const concurrency of [1, 2, 2, 1]) rounds.push(await round(apps.get(concurrency)!, postgresPid, concurrency, lists.get(concurrency)!, SECONDS));
  const [one, two] = [sum(rounds.filter((r) => r.concurrency === 1)), sum(rounds.filter((r) => r.concurrency === 2))];
  const row = (name: string, s: ReturnType<typeof sum>) => [
    name,
    Math.round(s.requestsPerSecond).toLocaleString("en"),
    ms(s.p50),
    ms(s.p99),
    String(s.failures),
    `${s.appCpuPerRequest.toFixed(2)} / ${s.pgCpuPerRequest.toFixed(2)} / ${s.loaderCpuPerRequest.toFixed(2)} ms`,
    s.cores.map((c) => c.toFixed(2)).join(" / "),
  ];
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  const kib = (dataUrl: string) => Math.round((dataUrl.length * 3) / 4 / 1024);
  return [
    `### Mixed studio load: ${USERS} signed-in users, one connection each, ${SECONDS} s rounds in the order 1, 2, 2, 1 worker(s)`,
    "",
    `Per ${total} requests of a user: ${MIX.me} × GET /api/auth/me, ${MIX.cameras} × GET /api/cameras, ${MIX.photos} × GET /api/photos?limit=50 (of ${PHOTOS_PER_USER}), ` +
      `${MIX.detect} × POST /api/moondream/detect (a 1024×576 JPEG, ${kib(aiDataUrl)} KiB, on the user's own key, to the fake Moondream on loopback answering after ${MOONDREAM_LATENCY_MS} ms), ` +
      `${MIX.upload} × POST /api/photos (a 1280×720 JPEG, ${kib(photoDataUrl)} KiB: stored, thumbnailed). One PostgreSQL for both apps; the load generator (autocannon, in this process) and the fake Moondream share the same cores.`,
    "",
    `Machine during the rounds: ${rounds.map((r) => `${r.concurrency} worker(s): ${r.load}`).join("; ")}.`,
    "",
    table(
      [
        "WEB_CONCURRENCY",
        "requests/s",
        "p50 (worst round)",
        "p99 (worst round)",
        "errors + non-2xx",
        "CPU per request: app / PostgreSQL / load generator",
        "cores busy: app / PostgreSQL / load generator",
      ],
      [row("1", one), row("2", two)],
    ),
    "",
    `Requests/s with 2 workers / with 1: **${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}** (${one.requests.toLocaleString("en")} and ${two.requests.toLocaleString("en")} requests).`,
  ].join("\n");
}

export async function runScaleBenchmarks(options: { withOtherFigures: boolean } = { withOtherFigures: true }): Promise<string> {
  const pg = await startTestPostgres();
  const fake = await startFakeMoondreamProcess(MOONDREAM_LATENCY_MS);
  const apps = new Map<number, TestApp>();
  let mixed: string;
  let home: string;
  try {
    mixed = await mixedLoad(pg, fake.url, apps);
    await apps.get(2)?.stop();
    // The marketing home page against a static file, on the single-process app that served the mix.
    home = await throughput(apps.get(1)!);
  } finally {
    await Promise.all([...apps.values()].map((app) => app.stop()));
    fake.process.kill();
    await pg.stop();
  }
  if (!options.withOtherFigures) return ["## Scale", "", mixed].join("\n");
  return [
    "## Scale",
    "",
    mixed,
    "",
    "### The issue's fast-path figures, from their own groups, in this same run",
    "",
    "#### Session check (foundation)",
    "",
    await authMe(),
    "",
    "#### Marketing home page (marketing)",
    "",
    home,
    "",
    (await runVisionBenchmarks()).replace(/^## /gm, "#### "),
    "",
    (await runAutomationBenchmarks()).replace(/^## /gm, "#### "),
  ].join("\n");
}
