// `npm run test:load`: LOAD_USERS (50) simulated studio users for LOAD_SECONDS (60) each, against the production
// server on loopback with its own embedded PostgreSQL and the fake Moondream (own process, 50 ms latency) as the
// provider. Each user does what the studio does, with the studio's own API calls (the typed client in
// app/lib/api): detection every 2 s on a 1280×720 JPEG frame, a capture every 10 s followed by the
// photo list, a story (a caption with its photo every ~6 s, as story mode paces them), and a people-counting
// session (a count every 5 s). Prints a markdown report and, for a full-size run, writes bench/LOAD.md.
// Exits non-zero when any request failed or memory grew beyond ±10 %.
import { writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { markerImage, row } from "../fakes/moondream/images";
import { startFakeMoondreamProcess } from "../../bench/lib";
import { ROOT, startApp, startTestPostgres, tempDir } from "../support/stack";
import { cpuMs, fmtMs, loadAverage, machineLine, percentile, Recorder, rssMiB, Session, slope, sleep, table } from "./lib";

const USERS = Number(process.env.LOAD_USERS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const FULL = USERS >= 50 && SECONDS >= 60;
const PROVIDER_LATENCY_MS = 50;
const SAMPLE_EVERY_MS = 2000;

// A hard bound on the whole run: set-up, the users' minute and their wrap-up.
const watchdog = setTimeout(
  () => {
    console.error(`test:load did not finish within ${SECONDS + 180} s`);
    process.exit(2);
  },
  (SECONDS + 180) * 1000,
);
watchdog.unref();

const recorder = new Recorder();
const started = Date.now();
const pg = await startTestPostgres();
const databaseUrl = await pg.createDatabase("framewise_load");
const fake = await startFakeMoondreamProcess(PROVIDER_LATENCY_MS);
const app = await startApp({
  DATABASE_URL: databaseUrl,
  DATA_DIR: tempDir("load-data"),
  MOONDREAM_ENDPOINT: fake.url,
  MOONDREAM_API_KEY: "load-shared-key",
  // Request logs stay on (as in production); each user has its own key, so the default pace limit applies per user.
});
const pid = app.process.pid!;
const observer = postgres(databaseUrl, { max: 1, onnotice: () => {} });

const frame = await markerImage({ width: 1280, height: 720, quality: 80, noise: 20, markers: [...row("red", 2, 0.2), ...row("blue", 1, 0.6)] });
const frameUrl = `data:image/jpeg;base64,${frame.toString("base64")}`;

interface Sample {
  t: number;
  rss: number;
  connections: number;
}
const samples: Sample[] = [];
let sampling = true;
async function sampleLoop() {
  while (sampling) {
    const [{ count }] = await observer<[{ count: number }]>`select count(*)::int as count from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    samples.push({ t: (Date.now() - loadStart) / 1000, rss: rssMiB(pid), connections: count });
    await sleep(SAMPLE_EVERY_MS);
  }
}

/** Runs `task` every `everyMs` (measured from one start to the next, never overlapping, as the studio's loops do) until `end`. */
async function every(everyMs: number, end: number, offsetMs: number, task: () => Promise<void>) {
  await sleep(offsetMs);
  let next = Date.now();
  while (next < end) {
    await task().catch(() => {}); // recorded by the session
    next += everyMs;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    else next = Date.now();
  }
}

async function studioUser(index: number, end: number) {
  const s = new Session(app.url, recorder);
  await s.signUp(`load_user_${index}`);
  await s.json("POST", "/api/moondream/api-key", { apiKey: `load-key-${index}` });
  const camera = await s.json<{ id: string; name: string }>("POST", "/api/cameras", { name: `Camera ${index}`, model: "Webcam", status: "online" });
  const story = await s.json<{ id: string }>("POST", "/api/stories", { cameraId: camera.id, cameraName: camera.name });
  const counting = await s.json<{ id: string }>("POST", "/api/people-count/sessions", { cameraId: camera.id, cameraName: camera.name });
  // Bodies built once per user, as strings: the load generator must not be what limits the run.
  const detectBody = JSON.stringify({ imageData: frameUrl, object: "red marker", maxObjects: 10, confidenceThreshold: 0.5 });
  const captureBody = JSON.stringify({ cameraId: camera.id, imageData: frameUrl, captureMode: "single", videoWidth: 1280, videoHeight: 720, frameRate: 30 });
  const storyPhotoBody = JSON.stringify({ cameraId: camera.id, imageData: frameUrl, captureMode: "single", storyId: story.id, videoWidth: 1280, videoHeight: 720, frameRate: 30 });
  const captionBody = JSON.stringify({ imageData: frameUrl, storyMode: true });
  const countBody = JSON.stringify({ imageData: frameUrl, sessionId: counting.id, useRange: false });
  // Users do not all press start in the same millisecond.
  const jitter = () => Math.floor(Math.random() * 2000);

  await Promise.all([
    every(2000, end, jitter(), async () => void (await s.request("POST", "/api/moondream/detect", detectBody))),
    every(10_000, end, jitter(), async () => {
      await s.request("POST", "/api/photos", captureBody);
      await s.request("GET", "/api/photos?limit=50");
    }),
    every(6000, end, jitter(), async () => {
      const captioned = await s.request("POST", "/api/moondream/caption", captionBody);
      if (captioned.status !== 200) return;
      const { caption } = (await captioned.json()) as { caption: string };
      const photo = await s.request("POST", "/api/photos", storyPhotoBody);
      const photoId = photo.status === 201 ? ((await photo.json()) as { id: string }).id : null;
      await s.request("POST", `/api/stories/${story.id}/captions`, { caption, photoId });
    }),
    every(5000, end, jitter(), async () => void (await s.request("POST", "/api/people-count/count", countBody))),
  ]);

  // Wrap-up, as the studio does when the user stops the story and the counting session.
  await s.request("POST", `/api/stories/${story.id}/finish`);
  await s.request("GET", `/api/stories/${story.id}/captions`);
  await s.request("GET", `/api/stories/${story.id}/photos`);
  await s.request("POST", `/api/people-count/sessions/${counting.id}/finish`);
  await s.request("GET", `/api/people-count/sessions/${counting.id}/snapshots`);
}

const idleRss = rssMiB(pid);
const cpuBefore = { app: cpuMs(pid), fake: cpuMs(fake.process.pid!), client: cpuMs("self") };
const loadStart = Date.now();
const end = loadStart + SECONDS * 1000;
const sampler = sampleLoop();
await Promise.all(Array.from({ length: USERS }, (_, i) => studioUser(i, end)));
const loadMs = Date.now() - loadStart;
sampling = false;
await sampler;
const cpuAfter = { app: cpuMs(pid), fake: cpuMs(fake.process.pid!), client: cpuMs("self") };
const machineLoad = loadAverage();

const [{ max_connections }] = await observer<[{ max_connections: string }]>`select current_setting('max_connections') as max_connections`;
await observer.end();
await app.stop();
fake.process.kill("SIGTERM");
await pg.stop();

// The report.
const calls = recorder.calls;
const failed = calls.filter((c) => c.status === 0 || c.status >= 400);
const routes = [...recorder.byRoute()].map(([route, list]) => {
  const times = list.map((c) => c.ms).sort((a, b) => a - b);
  const bad = list.filter((c) => c.status === 0 || c.status >= 400);
  const statuses = [...new Set(bad.map((c) => c.error ?? String(c.status)))].join(", ");
  return [
    route,
    list.length,
    (list.length / (loadMs / 1000)).toFixed(1),
    fmtMs(percentile(times, 50)),
    fmtMs(percentile(times, 99)),
    fmtMs(times.at(-1)!),
    bad.length ? `${bad.length} (${statuses})` : "0",
  ];
});
// Memory: the first samples include warm-up (JIT, pools, buffers filling); the trend is judged on the rest.
const warm = samples.filter((s) => s.t >= Math.min(15, SECONDS / 4));
const rssValues = warm.map((s) => s.rss);
const rssMean = rssValues.reduce((a, b) => a + b, 0) / Math.max(1, rssValues.length);
const rssFirst = warm[0]?.rss ?? NaN;
const rssLast = warm.at(-1)?.rss ?? NaN;
const maxDeviation = Math.max(...rssValues.map((v) => Math.abs(v - rssMean) / rssMean));
const trendPerMinute = slope(warm.map((s) => [s.t / 60, s.rss]));
// The target is no growth. RSS swings ±10–15 % around a flat mean as V8 grows its heap and collects, so single
// samples (or a line fitted through a minute of them) mostly measure where in a swing the run began and ended.
// Growth is judged on the mean of the last third of the warm samples against the mean of the first third: a
// real leak (say every frame kept: ~150 MB in a run) moves that by far more than the 10 % allowed.
const third = Math.max(1, Math.floor(rssValues.length / 3));
const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const rssEarly = meanOf(rssValues.slice(0, third));
const rssLate = meanOf(rssValues.slice(-third));
const memoryFlat = rssLate - rssEarly <= 0.1 * rssMean;
const maxConnections = Math.max(...samples.map((s) => s.connections));
const cpuShare = (key: "app" | "fake" | "client") => `${(((cpuAfter[key] - cpuBefore[key]) / loadMs) * 100).toFixed(0)} %`;

const report = [
  "# Load test (`npm run test:load`)",
  "",
  `${USERS} simulated studio users for ${SECONDS} s each (${new Date(started).toISOString()}). Machine: ${machineLine()}; load average at the end ${machineLoad}.`,
  `The load generator, the fake Moondream (own process, ${PROVIDER_LATENCY_MS} ms per answer, fixed boxes) and PostgreSQL share these cores with the app, so the figures are relative to the whole stack on this one machine, not to a dedicated server.`,
  "Per user: detection every 2 s on a 1280×720 JPEG (" +
    `${(frame.length / 1024).toFixed(0)} KB` +
    "), a capture every 10 s then the photo list, a story caption with its photo and caption row every 6 s, a people count every 5 s; then the story and session are finished and read back. Every user has its own key (default pace limit of 2 calls/s per key), a session cookie, and sends the Origin header.",
  "",
  "## Totals",
  "",
  table(
    ["measure", "figure", "target"],
    [
      ["requests (all routes)", calls.length, ""],
      ["requests/s over the run", (calls.length / (loadMs / 1000)).toFixed(1), ""],
      ["errors (network, timeouts, 4xx/5xx)", failed.length, `0 ${failed.length === 0 ? "✅ met" : "❌ missed"}`],
      ["CPU used during the run: app / fake / load generator (of one core)", `${cpuShare("app")} / ${cpuShare("fake")} / ${cpuShare("client")}`, ""],
      ["PostgreSQL connections of the app: max over the run", `${maxConnections} (pool size 10 + LISTEN + graphile-worker; server max_connections ${max_connections})`, "bounded"],
    ],
  ),
  "",
  "## Per route",
  "",
  table(["route", "requests", "per s", "p50", "p99", "max", "errors"], routes),
  "",
  "## Server memory (RSS of the app process, from /proc)",
  "",
  table(
    ["measure", "figure"],
    [
      ["idle after start-up", `${idleRss.toFixed(0)} MiB`],
      [`first sample after warm-up (t = ${warm[0]?.t.toFixed(0) ?? "?"} s)`, `${rssFirst.toFixed(0)} MiB`],
      ["last sample", `${rssLast.toFixed(0)} MiB`],
      ["mean after warm-up / largest deviation from it", `${rssMean.toFixed(0)} MiB / ${(maxDeviation * 100).toFixed(1)} %`],
      ["trend after warm-up (least squares)", `${trendPerMinute >= 0 ? "+" : ""}${trendPerMinute.toFixed(1)} MiB/min`],
      [
        "mean of the last third vs the first third of the warm samples",
        `${rssLate.toFixed(0)} vs ${rssEarly.toFixed(0)} MiB (${rssLate >= rssEarly ? "+" : ""}${(((rssLate - rssEarly) / rssMean) * 100).toFixed(1)} % of the mean)`,
      ],
      ["no growth: the last third at most 10 % of the mean above the first", memoryFlat ? "✅ met" : "❌ missed"],
    ],
  ),
  "",
  `Samples every ${SAMPLE_EVERY_MS / 1000} s (t in s: RSS MiB / PostgreSQL connections): ` +
    samples.map((s) => `${s.t.toFixed(0)}: ${s.rss.toFixed(0)}/${s.connections}`).join(", "),
  "",
  "The V8 heap is not exposed by the server (no metrics endpoint), so RSS — which includes it — is what is sampled.",
  failed.length
    ? `\n## Failures (first 20)\n\n${failed
        .slice(0, 20)
        .map((c) => `- ${c.route} → ${c.error ?? c.status} after ${fmtMs(c.ms)}`)
        .join("\n")}`
    : "",
].join("\n");

console.log(report);
if (FULL) writeFileSync(path.join(ROOT, "bench/LOAD.md"), `${report}\n`);
clearTimeout(watchdog);
process.exit(failed.length === 0 && memoryFlat ? 0 : 1);
