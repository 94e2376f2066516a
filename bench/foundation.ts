// Foundation benchmarks: GET /api/auth/me through the whole app against a bare node:http server returning
// the same JSON, and cold vs warm start-up of `npm start` to the first 200 from /readyz.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { rmSync } from "node:fs";
import { freePort, ROOT, startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { load, machine, ms, table, verdict } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;

export async function authMe(): Promise<string> {
  const pg = await startTestPostgres();
  const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("bench") });
  try {
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "bench_user", password: "bench-password" }),
    });
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const body = await signup.text();

    const bare = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(body);
    });
    const barePort = await freePort();
    await new Promise<void>((resolve) => bare.listen(barePort, "127.0.0.1", resolve));

    // Warm both up, then measure one after the other in the same run.
    await load({ url: `${app.url}/api/auth/me`, connections: 10, seconds: 2, headers: { cookie } });
    const appResult = await load({ url: `${app.url}/api/auth/me`, connections: CONNECTIONS, seconds: SECONDS, headers: { cookie } });
    const bareResult = await load({ url: `http://127.0.0.1:${barePort}/`, connections: CONNECTIONS, seconds: SECONDS });
    bare.close();

    const ratio = appResult.requestsPerSecond / bareResult.requestsPerSecond;
    return [
      `### GET /api/auth/me (signed in), ${CONNECTIONS} connections, ${SECONDS} s each`,
      "",
      table(
        ["server", "requests/s", "p50", "p99", "errors / non-2xx"],
        [
          [
            "Framewise (session from the in-process cache, SESSION_CACHE_SECONDS)",
            appResult.requestsPerSecond.toFixed(0),
            ms(appResult.p50),
            ms(appResult.p99),
            `${appResult.errors} / ${appResult.non2xx}`,
          ],
          ["bare node:http, same JSON", bareResult.requestsPerSecond.toFixed(0), ms(bareResult.p50), ms(bareResult.p99), `${bareResult.errors} / ${bareResult.non2xx}`],
        ],
      ),
      "",
      `Throughput ratio app / bare: **${ratio.toFixed(2)}** (target ≥ 0.25: ${verdict(ratio >= 0.25)})`,
    ].join("\n");
  } finally {
    await app.stop();
    await pg.stop();
  }
}

/** Runs `npm start` and returns the milliseconds until /readyz first answers 200. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const pgPort = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort), LOG_LEVEL: "warn", DATABASE_URL: "" },
    stdio: "ignore",
    detached: true,
  });
  // Listened for from the start: npm can exit before the loop below looks (a start-up failure), and a listener
  // added after its "exit" would wait forever (node then ends the whole run silently with exit code 13).
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // the whole process group has exited already
    }
    await exited;
  }
}

async function startup(): Promise<string> {
  const dataDir = tempDir("startup");
  try {
    const cold = await timeStart(dataDir);
    const warm = await timeStart(dataDir);
    return [
      "### Start-up of `npm start` to the first 200 from /readyz (build already present)",
      "",
      table(
        ["start", "time", "target"],
        [
          ["cold: empty DATA_DIR, embedded PostgreSQL initialised, migrations run", ms(cold), `≤ 20 s ${verdict(cold <= 20_000)}`],
          ["warm: same DATA_DIR again", ms(warm), `≤ 5 s ${verdict(warm <= 5_000)}`],
        ],
      ),
    ].join("\n");
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runFoundationBenchmarks(): Promise<string> {
  return [`## Foundation`, "", await authMe(), "", await startup()].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runFoundationBenchmarks());
}
