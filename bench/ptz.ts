// PTZ benchmarks: command latency from the call to the fake camera receiving the command, per protocol,
// through the app (POST /api/ptz/move as a signed-in user) against a client speaking to the same fake
// directly (the protocol driver used in-process, over its own pooled connection), interleaved call by call
// in one run so both see the same machine load. Target: the app adds ≤ 5 ms at p50.
//
// The fakes run in this process, so arrival times and send times share one clock (performance.now()).
import { performance } from "node:perf_hooks";
import { startFakeHttpCgi } from "../tests/fakes/ptz/http-cgi";
import { startFakeOnvif } from "../tests/fakes/ptz/onvif";
import type { Recorder } from "../tests/fakes/ptz/recorder";
import { startFakeVisca } from "../tests/fakes/ptz/visca";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { machineLoad, ms, table, verdict } from "./lib";

const CALLS = Number(process.env.BENCH_PTZ_CALLS ?? 200);
const TARGET_ADDED_P50_MS = 5;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export async function runPtzBenchmarks(): Promise<string> {
  // The drivers read the logger's configuration on import; keep its generated secrets out of ./data.
  process.env.DATA_DIR ??= tempDir("bench-ptz-direct");
  const { ViscaDriver } = await import("#server/ptz/visca");
  const { HttpCgiDriver } = await import("#server/ptz/http-cgi");
  const { OnvifDriver } = await import("#server/ptz/onvif");

  const pg = await startTestPostgres();
  const [visca, cgi, onvif] = await Promise.all([startFakeVisca(), startFakeHttpCgi(), startFakeOnvif()]);
  const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("bench-ptz"), PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", PTZ_ALLOWED_PORTS: "1024-65535" });
  try {
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "bench_ptz", password: "bench-password" }),
    });
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const headers = { cookie, "content-type": "application/json", origin: app.url };

    const cases = [
      { name: "VISCA over TCP", protocol: "visca", port: visca.port, recorder: visca.recorder as Recorder<unknown>, driver: new ViscaDriver(target(visca.port)) },
      { name: "PTZOptics HTTP-CGI (Digest)", protocol: "http-cgi", port: cgi.port, recorder: cgi.recorder as Recorder<unknown>, driver: new HttpCgiDriver(target(cgi.port)) },
      { name: "ONVIF (WS-Security)", protocol: "onvif", port: onvif.port, recorder: onvif.recorder as Recorder<unknown>, driver: new OnvifDriver(target(onvif.port)) },
    ] as const;

    // The floor any authenticated API call pays on this machine (HTTP, session lookup, routing, request log).
    const floor: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await (await fetch(`${app.url}/api/auth/me`, { headers })).arrayBuffer();
      floor.push(performance.now() - started);
    }
    const rows: (string | number)[][] = [];
    const summary: (string | number)[][] = [];
    for (const c of cases) {
      const connection = { ip: "127.0.0.1", username: "admin", password: "admin", protocol: c.protocol, port: c.port };
      const viaApp = async (direction: "left" | "right") => {
        const response = await fetch(`${app.url}/api/ptz/move`, { method: "POST", headers, body: JSON.stringify({ connection, direction, speed: 12 }) });
        if (response.status !== 200) throw new Error(`POST /api/ptz/move answered ${response.status}: ${await response.text()}`);
      };
      const direct = (direction: "left" | "right") => c.driver.move(direction, 12);
      // Warm both paths: connections, digest challenges, ONVIF session, the app's pool.
      for (let i = 0; i < 10; i++) {
        await viaApp(i % 2 ? "left" : "right");
        await direct(i % 2 ? "left" : "right");
      }
      const appTimes: number[] = [];
      const directTimes: number[] = [];
      const measure = async (run: () => Promise<void>, into: number[]) => {
        const from = c.recorder.received.length;
        const started = performance.now();
        await run();
        const arrival = await c.recorder.next(() => true, from, 5000);
        into.push(arrival.at - started);
      };
      for (let i = 0; i < CALLS; i++) {
        const direction = i % 2 ? "left" : "right";
        await measure(() => viaApp(direction), appTimes);
        await measure(() => direct(direction), directTimes);
      }
      await c.driver.stop("move");
      c.driver.close();
      const added = percentile(appTimes, 50) - percentile(directTimes, 50);
      rows.push([c.name, "app (POST /api/ptz/move)", ms(percentile(appTimes, 50)), ms(percentile(appTimes, 99))]);
      rows.push([c.name, "direct to the camera", ms(percentile(directTimes, 50)), ms(percentile(directTimes, 99))]);
      summary.push([c.name, ms(added), `≤ ${TARGET_ADDED_P50_MS} ms`, verdict(added <= TARGET_ADDED_P50_MS)]);
    }
    return [
      "## PTZ command latency",
      "",
      `From the call to the fake camera receiving the move, ${CALLS} calls per path, app and direct interleaved; fakes on loopback in the benchmark process. Load: ${machineLoad()}.`,
      "",
      table(["protocol", "path", "p50", "p99"], rows),
      "",
      table(["protocol", "added by the app at p50", "target", "result"], summary),
      "",
      `For scale: a full round trip of the cheapest authenticated call, GET /api/auth/me, took ${ms(percentile(floor, 50))} at p50 (${ms(percentile(floor, 99))} p99) in this run; the relay's added latency is of that order, as it pays the same HTTP, session and routing work before the command leaves.`,
    ].join("\n");
  } finally {
    await app.stop();
    await Promise.all([visca.close(), cgi.close(), onvif.close()]);
    await pg.stop();
  }
}

function target(port: number) {
  return { address: "127.0.0.1", ip: "127.0.0.1", port, username: "admin", password: "admin" };
}
