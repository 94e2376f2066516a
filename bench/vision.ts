// Vision benchmarks: POST /api/moondream/detect with a 1920×1080 JPEG through the app, against the same request
// through a bare relay (bench/bare-relay.ts, the yardstick of issue 20's targets) and sent straight to the fake
// Moondream (fixed 50 ms latency, for context), at 1 and 50 clients; plus what the per-key pace limit does to one key,
// and the bytes sent to the provider per frame before and after downscaling.
//
// Fairness: the fake runs in its own process (so it does not share a thread with the load generator),
// answers fixed boxes without decoding the image (its cost is then only what any provider front end pays:
// reading and parsing the JSON body), and both paths hit that same process. The app runs as in production
// (request logs on) with the user's own key, so no quota write (the call's usage count is its one database write,
// server/vision/usage.ts); the pace limit is off for the comparison
// (MOONDREAM_REQUESTS_PER_SECOND=0: one key at the default 2 requests/s could never show server overhead)
// and then measured at its default on its own; the provider client keeps its connections alive with no cap on
// their number (server/vision/http-fetch.ts), so 50 calls in flight use 50 sockets, as the table's note shows.
// The paths are measured in turns (ROUNDS slices each, one path after the other), so a burst of other work on this
// shared machine lands on all of them rather than on whichever ran at the time; latency percentiles are of the exact
// latencies of all slices (autocannon's own are whole milliseconds, too coarse for a 2 ms target). Next to latency
// and throughput each phase reports the CPU the app, its database, the fake and the load generator spent per request
// (from /proc), the figure that stays meaningful when other work shares the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { markerImage } from "../tests/fakes/moondream/images";
import { startApp, startTestPostgres, tempDir, type TestApp } from "../tests/support/stack";
import { parseJsonBytes } from "#server/http/json-body";
import postgres from "postgres";
import { load, machine, machineLoad, ms, postmasterPid, processCpuMs, startFakeMoondreamProcess, table, timeCalls, treeCpu, treeCpuBetween, verdict, type LoadResult } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Each path's SECONDS are run as this many slices, taking turns with the other paths. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
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
  /** CPU per answered request, in ms: the app (or relay), its database, the fake provider, and the load generator (this process). */
  cpu: { app: number; db: number; fake: number; client: number };
}

/** What one phase measures: where to send the load, and the processes whose CPU is counted. */
interface Target {
  load: Omit<Parameters<typeof load>[0], "connections" | "seconds" | "samples">;
  pids: { app: number; fake: number; db: number };
}

/**
 * The targets' phases at `connections` clients, SECONDS each, run as ROUNDS slices taking turns (target 1, 2, 3, 1, 2,
 * 3…), with the CPU each process spent per request. On a shared machine latency and throughput move with everyone
 * else's load; taking turns spreads that over all targets, and CPU per request barely moves at all: it shows what
 * the app itself costs next to the provider and the client, whatever else ran. `around` runs before and after each
 * slice of a target (for the fake's connection counts).
 */
async function phases(targets: Target[], connections: number, around?: (index: number, when: "before" | "after") => Promise<void>): Promise<Phase[]> {
  const totals = targets.map(() => ({ requests: 0, errors: 0, non2xx: 0, samples: [] as number[], app: 0, db: 0, fake: 0, client: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) {
      const total = totals[index]!;
      await around?.(index, "before");
      const before = { app: processCpuMs(target.pids.app), db: treeCpu(target.pids.db), fake: processCpuMs(target.pids.fake), client: processCpuMs("self") };
      const result = await load({ ...target.load, connections, seconds: SECONDS / ROUNDS, samples: total.samples });
      const db = treeCpuBetween(before.db, treeCpu(target.pids.db));
      total.app += processCpuMs(target.pids.app) - before.app;
      total.db += db.self + db.children;
      total.fake += processCpuMs(target.pids.fake) - before.fake;
      total.client += processCpuMs("self") - before.client;
      total.requests += result.requests;
      total.errors += result.errors;
      total.non2xx += result.non2xx;
      await around?.(index, "after");
    }
  }
  return totals.map((total) => {
    const per = (ms: number) => ms / Math.max(1, total.requests);
    const sorted = total.samples.sort((a, b) => a - b);
    const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? NaN;
    return {
      requestsPerSecond: total.requests / SECONDS,
      requests: total.requests,
      p50: at(0.5),
      p99: at(0.99),
      errors: total.errors,
      non2xx: total.non2xx,
      cpu: { app: per(total.app), db: per(total.db), fake: per(total.fake), client: per(total.client) },
    };
  });
}

const cpu = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");
/** Latency to a tenth of a millisecond: the 1-client target is a difference of 2 ms. */
const latency = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");
const row = (label: string, r: Phase) => [
  label,
  r.requestsPerSecond.toFixed(0),
  latency(r.p50),
  latency(r.p99),
  `${r.errors} / ${r.non2xx}`,
  cpu(r.cpu.app),
  cpu(r.cpu.db),
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
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const db = await postmasterPid(sql).finally(() => sql.end());
    const pids = { app: app.process.pid!, fake: fake.process.pid!, db };
    const relayPids = { app: relay.process.pid!, fake: fake.process.pid!, db };
    const targets: Target[] = [
      { load: direct, pids },
      { load: viaRelay, pids: relayPids },
      { load: throughApp, pids },
    ];
    const loadAtStart = machineLoad();
    const check = await fetch(throughApp.url, throughApp);
    if (check.status !== 200) throw new Error(`detect through the app failed: ${check.status} ${await check.text()}`);
    const sentFor1080p = await lastProviderBodyBytes(fake.url);

    // Warm the paths up (JIT, connection pools, keep-alive sockets), then measure them taking turns in the same run,
    // with the same client (autocannon) and the same frame; the sides differ only in the URL and in the request's own
    // fields (the app's API versus Moondream's).
    for (const target of targets) await load({ ...target.load, connections: 10, seconds: 2 });
    const [direct1, relay1, app1] = (await phases(targets, 1)) as [Phase, Phase, Phase];
    // The provider connections the app opens at 50 clients: counted around the app's slices only.
    const appCalls = { calls: 0, connections: 0 };
    let statsBefore: FakeStats | undefined;
    const [direct50, relay50, app50] = (await phases(targets, 50, async (index, when) => {
      if (index !== 2) return;
      const stats = await fakeStats(fake.url);
      if (when === "before") statsBefore = stats;
      else {
        appCalls.calls += stats.calls - statsBefore!.calls;
        appCalls.connections += stats.connections - statsBefore!.connections;
      }
    })) as [Phase, Phase, Phase];
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
    const [paced50] = (await phases(
      [{ load: { ...throughApp, url: `${paced.url}/api/moondream/detect`, headers: { ...throughApp.headers, cookie: pacedCookie } }, pids: { ...pids, app: paced.process.pid! } }],
      50,
    )) as [Phase];

    // Reading the frame's JSON body, in this process, side by side: the plain way (decode the text, JSON.parse it,
    // base64-decode the image) against parseJsonBytes as the AI routes call it, the frame kept as bytes
    // (server/http/json-body.ts, FRAME_BODY in server/vision/frames.ts).
    const bodyBytes = Buffer.from(throughApp.body);
    const plainParse = timeCalls(
      () => {
        const value = JSON.parse(bodyBytes.toString("utf8")) as { imageData: string };
        Buffer.from(value.imageData.slice(value.imageData.indexOf(",") + 1), "base64");
      },
      { minRuns: 50 },
    );
    const fastParse = timeCalls(() => parseJsonBytes(bodyBytes, { bytesFor: "imageData" }), { minRuns: 50 });

    const added1 = app1.p50 - relay1.p50;
    const throughput50 = app50.requestsPerSecond / relay50.requestsPerSecond;
    const appCpu = (r: Phase) => r.cpu.app + r.cpu.db;
    const cpuRow = (clients: number, relayPhase: Phase, appPhase: Phase) => [
      String(clients),
      cpu(relayPhase.cpu.app),
      cpu(appPhase.cpu.app),
      cpu(appPhase.cpu.db),
      `${(appCpu(appPhase) / relayPhase.cpu.app).toFixed(2)} ×`,
    ];
    return [
      "## Vision",
      "",
      `### POST /api/moondream/detect, 1920×1080 JPEG (${kb(jpeg.length)}), fake provider with ${LATENCY_MS} ms latency, ${SECONDS} s each (${ROUNDS} slices per path, taking turns)`,
      "",
      table(
        ["path, clients", "requests/s", "p50", "p99", "errors / non-2xx", "CPU ms/request: app (or relay)", "database", "fake", "client"],
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
      "Targets (issue 20, against the bare relay in the same run):",
      "",
      table(
        ["target", "measured", "verdict"],
        [
          ["50 clients: app throughput ≥ 0.95 × the bare relay's", `${throughput50.toFixed(2)} ×`, verdict(throughput50 >= 0.95)],
          ["1 client: app p50 ≤ the bare relay's p50 + 2 ms", `${added1 >= 0 ? "+" : ""}${added1.toFixed(2)} ms`, verdict(added1 <= 2)],
        ],
      ),
      "",
      "CPU per request, the app (its process and its database's) against the bare relay's:",
      "",
      table(["clients", "bare relay, ms", "app, ms", "app's database, ms", "app + database / bare relay"], [cpuRow(1, relay1, app1), cpuRow(50, relay50, app50)]),
      "",
      `The bare relay (bench/bare-relay.ts; its CPU is in the app column) is the yardstick for what any relay costs on this machine: a plain node:http server that reads the body, JSON.parses it, sends the frame on to the fake over a keep-alive agent and answers — no sign-in, database, validation or framework. For context, against the straight call: the bare relay adds ${(relay1.p50 - direct1.p50).toFixed(2)} ms at 1 client and keeps ${(relay50.requestsPerSecond / direct50.requestsPerSecond).toFixed(2)} × of its throughput at 50 clients; the app adds ${(app1.p50 - direct1.p50).toFixed(2)} ms (${(app1.p50 / direct1.p50).toFixed(3)} ×) and keeps ${(app50.requestsPerSecond / direct50.requestsPerSecond).toFixed(2)} ×. On 2 cores the relay, the provider and the load generator share the CPU, which a straight call does not have to. The app's database work per call is counting it for the user's usage (server/vision/usage.ts): written while the provider works, concurrent calls' counts in one statement.`,
      "",
      `Machine: ${loadAtStart} before the comparison, ${loadAtEnd} after it (above ~1 per core, other work competed for the CPU and latency and throughput figures are depressed accordingly; CPU per request is the steadier figure). The app opened ${appCalls.connections} connections to the provider for ${appCalls.calls} calls at 50 clients (keep-alive; the fake, as any Node server, closes a connection idle for 5 s, as the app's are while the other paths take their turns).`,
      "",
      `With the default pace limit one key gets ${(paced50.requestsPerSecond - paced50.non2xx / SECONDS).toFixed(1)} answers/s (target: at most 2); calls that would queue longer than 10 s are refused at once with 429 (${paced50.non2xx} in ${SECONDS} s), so loops on one key cannot trip the provider's own limit. The comparison above runs with pacing off (MOONDREAM_REQUESTS_PER_SECOND=0), as with many users on their own keys.`,
      "",
      `Reading one such body (${kb(bodyBytes.length)}) to the validated image bytes: JSON.parse and a base64 decode ${ms(plainParse.median)} (best ${ms(plainParse.best)}), the app's parseJsonBytes (the frame left as the body's bytes, no string of it) ${ms(fastParse.median)} (best ${ms(fastParse.best)}): ${(plainParse.median / fastParse.median).toFixed(1)}× less.`,
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
