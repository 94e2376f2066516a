// Vision benchmarks: POST /api/moondream/detect with a 1920×1080 JPEG through the app against the same
// request sent straight to the fake Moondream (fixed 50 ms latency), at 1 and 50 clients, plus what the
// per-key pace limit does to one key, and the bytes sent to the provider per frame before and after downscaling.
//
// Fairness: the fake runs in its own process (so it does not share a thread with the load generator),
// answers fixed boxes without decoding the image (its cost is then only what any provider front end pays:
// reading and parsing the JSON body), and both paths hit that same process. The app runs as in production
// (request logs on) with the user's own key, so no quota write; the pace limit is off for the comparison
// (MOONDREAM_REQUESTS_PER_SECOND=0: one key at the default 2 requests/s could never show server overhead)
// and then measured at its default on its own; the provider client keeps its connections alive with no cap on
// their number (server/vision/http-fetch.ts), so 50 calls in flight use 50 sockets, as the table's note shows. Next to latency and throughput each phase reports the CPU the app,
// the fake and the load generator spent per request (from /proc), the figure that stays meaningful when other
// work shares the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { markerImage } from "../tests/fakes/moondream/images";
import { startApp, startTestPostgres, tempDir, type TestApp } from "../tests/support/stack";
import { parseJsonBytes } from "#server/http/json-body";
import { load, machine, machineLoad, ms, processCpuMs, startFakeMoondreamProcess, table, timeCalls, verdict, type LoadResult } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const LATENCY_MS = 50;

export async function signUpWithOwnKey(app: TestApp, username: string): Promise<string> {
  const signup = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: "bench-password" }),
  });
  const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
  const saved = await fetch(`${app.url}/api/moondream/api-key`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ apiKey: `bench-key-${username}` }),
  });
  if (saved.status !== 200) throw new Error(`saving the key failed: ${saved.status}`);
  return cookie;
}

interface FakeStats {
  calls: number;
  connections: number;
  last: { bytes: number };
}

async function fakeStats(fakeUrl: string): Promise<FakeStats> {
  return (await (await fetch(new URL("/__fake/stats", fakeUrl))).json()) as FakeStats;
}

async function lastProviderBodyBytes(fakeUrl: string): Promise<number> {
  return (await fakeStats(fakeUrl)).last.bytes;
}

interface Phase extends LoadResult {
  /** CPU per answered request, in ms: the app, the fake provider, and the load generator (this process). */
  cpu: { app: number; fake: number; client: number };
}

/**
 * One load phase, with the CPU each process spent per request. On a shared machine latency and throughput move
 * with everyone else's load, but CPU per request barely does: it shows what the app itself costs next to the
 * provider and the client, whatever else ran.
 */
async function phase(options: Parameters<typeof load>[0], pids: { app: number; fake: number }): Promise<Phase> {
  const before = { app: processCpuMs(pids.app), fake: processCpuMs(pids.fake), client: processCpuMs("self") };
  const result = await load(options);
  const requests = Math.max(1, result.requestsPerSecond * options.seconds);
  const per = (now: number, then: number) => (now - then) / requests;
  return { ...result, cpu: { app: per(processCpuMs(pids.app), before.app), fake: per(processCpuMs(pids.fake), before.fake), client: per(processCpuMs("self"), before.client) } };
}

const cpu = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");
const row = (label: string, r: Phase) => [
  label,
  r.requestsPerSecond.toFixed(0),
  ms(r.p50),
  ms(r.p99),
  `${r.errors} / ${r.non2xx}`,
  cpu(r.cpu.app),
  cpu(r.cpu.fake),
  cpu(r.cpu.client),
];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** bench/bare-relay.ts in its own process, in front of the fake. */
async function startBareRelay(providerUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./bare-relay.ts", import.meta.url).pathname, providerUrl], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString().split("\n")[0]!) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the bare relay exited with ${code}`)));
  });
  return { url, process: child };
}

export async function runVisionBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const fake = await startFakeMoondreamProcess(LATENCY_MS);
  const relay = await startBareRelay(fake.url);
  const apps: TestApp[] = [];
  try {
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-vision"), MOONDREAM_ENDPOINT: fake.url, MOONDREAM_API_KEY: "bench-shared-key" };
    const app = await startApp({ ...env, MOONDREAM_REQUESTS_PER_SECOND: "0" });
    apps.push(app);
    const cookie = await signUpWithOwnKey(app, "bench_vision");

    const jpeg = await markerImage({ width: 1920, height: 1080, quality: 80, noise: 20 });
    const imageUrl = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
    const direct = {
      url: `${fake.url}/detect`,
      method: "POST" as const,
      headers: { "content-type": "application/json", "x-moondream-auth": "bench-key-direct" },
      body: JSON.stringify({ image_url: imageUrl, object: "person", settings: { max_objects: 10 } }),
    };
    const throughApp = {
      url: `${app.url}/api/moondream/detect`,
      method: "POST" as const,
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ imageData: imageUrl, object: "person", maxObjects: 10, confidenceThreshold: 0.3 }),
    };
    const viaRelay = { ...throughApp, url: `${relay.url}/detect`, headers: { "content-type": "application/json" } };
    const pids = { app: app.process.pid!, fake: fake.process.pid! };
    const relayPids = { app: relay.process.pid!, fake: fake.process.pid! };
    const loadAtStart = machineLoad();
    const check = await fetch(throughApp.url, throughApp);
    if (check.status !== 200) throw new Error(`detect through the app failed: ${check.status} ${await check.text()}`);
    const sentFor1080p = await lastProviderBodyBytes(fake.url);

    // Warm both paths up (JIT, connection pools, keep-alive sockets), then measure them one after the other in the
    // same run, with the same client (autocannon) and the same frame; the two sides differ only in the URL and in
    // the request's own fields (the app's API versus Moondream's).
    await load({ ...direct, connections: 10, seconds: 2 });
    await load({ ...throughApp, connections: 10, seconds: 2 });
    await load({ ...viaRelay, connections: 10, seconds: 2 });
    const direct1 = await phase({ ...direct, connections: 1, seconds: SECONDS }, pids);
    const relay1 = await phase({ ...viaRelay, connections: 1, seconds: SECONDS }, relayPids);
    const app1 = await phase({ ...throughApp, connections: 1, seconds: SECONDS }, pids);
    const direct50 = await phase({ ...direct, connections: 50, seconds: SECONDS }, pids);
    const relay50 = await phase({ ...viaRelay, connections: 50, seconds: SECONDS }, relayPids);
    const statsBefore50 = await fakeStats(fake.url);
    const app50 = await phase({ ...throughApp, connections: 50, seconds: SECONDS }, pids);
    const statsAfter50 = await fakeStats(fake.url);
    const loadAtEnd = machineLoad();

    // A 4K frame: downscaled on the server to 1080p's pixel count before it is sent.
    const uhd = await markerImage({ width: 3840, height: 2160, quality: 80, noise: 20 });
    const uhdBody = JSON.stringify({ imageData: `data:image/jpeg;base64,${uhd.toString("base64")}`, object: "person" });
    const uhdResponse = await fetch(throughApp.url, { ...throughApp, body: uhdBody });
    if (uhdResponse.status !== 200) throw new Error(`4K detect failed: ${uhdResponse.status}`);
    const sentFor4k = await lastProviderBodyBytes(fake.url);
    const unscaled4k = JSON.stringify({ image_url: `data:image/jpeg;base64,${uhd.toString("base64")}`, object: "person", settings: { max_objects: 10 } }).length;

    // The default pace limit (2 calls/s per key), on its own app, with the same 50 clients on one key.
    const paced = await startApp({ ...env, DATA_DIR: tempDir("bench-vision-paced") });
    apps.push(paced);
    const pacedCookie = await signUpWithOwnKey(paced, "bench_paced");
    const paced50 = await phase(
      { ...throughApp, url: `${paced.url}/api/moondream/detect`, headers: { ...throughApp.headers, cookie: pacedCookie }, connections: 50, seconds: SECONDS },
      { app: paced.process.pid!, fake: fake.process.pid! },
    );

    // Reading the frame's JSON body, in this process, side by side: the plain way (decode the text, JSON.parse it,
    // base64-decode the image) against parseJsonBytes, which the app uses (server/http/json-body.ts).
    const bodyBytes = Buffer.from(throughApp.body);
    const plainParse = timeCalls(
      () => {
        const value = JSON.parse(bodyBytes.toString("utf8")) as { imageData: string };
        Buffer.from(value.imageData.slice(value.imageData.indexOf(",") + 1), "base64");
      },
      { minRuns: 50 },
    );
    const fastParse = timeCalls(() => parseJsonBytes(bodyBytes), { minRuns: 50 });

    const p50Ratio = app1.p50 / direct1.p50;
    const p50Added = app1.p50 - direct1.p50;
    const throughput = app50.requestsPerSecond / direct50.requestsPerSecond;
    return [
      "## Vision",
      "",
      `### POST /api/moondream/detect, 1920×1080 JPEG (${kb(jpeg.length)}), fake provider with ${LATENCY_MS} ms latency, ${SECONDS} s each`,
      "",
      table(
        ["path, clients", "requests/s", "p50", "p99", "errors / non-2xx", "CPU ms/request: app", "fake", "client"],
        [
          row("straight to the fake, 1", direct1),
          row("through a bare relay, 1", relay1),
          row("through the app, 1", app1),
          row("straight to the fake, 50", direct50),
          row("through a bare relay, 50", relay50),
          row("through the app, 50", app50),
          row("through the app, 50, one key at the default pace limit (2/s)", paced50),
        ],
      ),
      "",
      table(
        ["target", "measured", "verdict"],
        [
          ["1 client: app p50 ≤ 1.05 × direct p50", `${p50Ratio.toFixed(3)} ×`, verdict(p50Ratio <= 1.05)],
          ["1 client: app p50 ≤ direct p50 + 5 ms", `+${p50Added.toFixed(2)} ms`, verdict(p50Added <= 5)],
          ["50 clients: app throughput ≥ 0.8 × direct", `${throughput.toFixed(2)} ×`, verdict(throughput >= 0.8)],
        ],
      ),
      "",
      `The bare relay (bench/bare-relay.ts; its CPU is in the app column) is the yardstick for what any relay costs on this machine: a plain node:http server that reads the body, JSON.parses it, sends the frame on to the fake over a keep-alive agent and answers — no sign-in, database, validation or framework. It adds ${(relay1.p50 - direct1.p50).toFixed(2)} ms at 1 client (${(relay1.p50 / direct1.p50).toFixed(3)} ×) and keeps ${(relay50.requestsPerSecond / direct50.requestsPerSecond).toFixed(2)} × of direct throughput at 50 clients; the app keeps ${(app50.requestsPerSecond / relay50.requestsPerSecond).toFixed(2)} × of the bare relay's throughput and adds ${(app1.p50 - relay1.p50).toFixed(2)} ms over it at 1 client. On 2 cores the relay, the provider and the load generator share the CPU, which a straight call does not have to.`,
      "",
      `Machine: ${loadAtStart} before the comparison, ${loadAtEnd} after it (above ~1 per core, other work competed for the CPU and latency and throughput figures are depressed accordingly; CPU per request is the steadier figure). The app opened ${statsAfter50.connections - statsBefore50.connections} connections to the provider for ${statsAfter50.calls - statsBefore50.calls} calls at 50 clients (keep-alive).`,
      "",
      `With the default pace limit one key gets ${(paced50.requestsPerSecond - paced50.non2xx / SECONDS).toFixed(1)} answers/s (target: at most 2); calls that would queue longer than 10 s are refused at once with 429 (${paced50.non2xx} in ${SECONDS} s), so loops on one key cannot trip the provider's own limit. The comparison above runs with pacing off (MOONDREAM_REQUESTS_PER_SECOND=0), as with many users on their own keys.`,
      "",
      `Reading one such body (${kb(bodyBytes.length)}) to the validated image bytes: JSON.parse and a base64 decode ${ms(plainParse.median)} (best ${ms(plainParse.best)}), the app's parseJsonBytes ${ms(fastParse.median)} (best ${ms(fastParse.best)}): ${(plainParse.median / fastParse.median).toFixed(1)}× less.`,
      "",
      "### Bytes sent to the provider per frame (request body)",
      "",
      table(
        ["frame", "as received (base64 data URL)", "sent to Moondream", "saved"],
        [
          [`1920×1080 JPEG, ${kb(jpeg.length)} (not downscaled: ≤ 2.2 MP)`, kb(throughApp.body.length), kb(sentFor1080p), "—"],
          [`3840×2160 JPEG, ${kb(uhd.length)} (downscaled to 1920×1080)`, kb(unscaled4k), kb(sentFor4k), `${Math.round((1 - sentFor4k / unscaled4k) * 100)} %`],
        ],
      ),
    ].join("\n");
  } catch (error) {
    for (const app of apps)
      console.error(
        app.logs
          .filter((line) => !line.includes('"level":30'))
          .slice(-20)
          .join("\n"),
      );
    throw error;
  } finally {
    for (const app of apps) await app.stop();
    fake.process.kill("SIGTERM");
    relay.process.kill("SIGTERM");
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runVisionBenchmarks());
}
