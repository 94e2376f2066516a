// Provider faults: the fake Moondream answering 429 (Retry-After), 500, garbage (an HTML page, JSON of the wrong
// shape) and hanging past the timeout. The app must answer problem JSON with a documented status (429, 502, 504),
// retry with backoff (honouring Retry-After), give the shared key's reserved free call back, stay healthy, and work
// again as soon as the provider does.
import { markerImage, row, toDataUrl } from "../fakes/moondream/images";
import { startFakeMoondream } from "../fakes/moondream/server";
import { Session } from "../load/lib";
import { startApp, startTestPostgres, tempDir } from "../support/stack";
import { Findings, readProblem, type Section } from "./report";

const TIMEOUT_MS = 2000;
const DOCUMENTED = new Set([400, 413, 422, 429, 502, 503, 504]);

export async function providerFaults(): Promise<Section> {
  const f = new Findings();
  const pg = await startTestPostgres();
  const fake = await startFakeMoondream();
  const app = await startApp({
    DATABASE_URL: await pg.createDatabase(),
    DATA_DIR: tempDir("faults-provider"),
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: "faults-shared-key",
    MOONDREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    MOONDREAM_MAX_RETRIES: "2",
  });
  try {
    const frame = toDataUrl(await markerImage({ width: 640, height: 360, markers: row("red", 2, 0.3) }));
    const detect = { imageData: frame, object: "red", maxObjects: 10, confidenceThreshold: 0.5 };
    let n = 0;
    const userWithKey = async (key: string | null) => {
      const s = new Session(app.url);
      await s.signUp(`faults_provider_${n++}`);
      if (key) await s.json("POST", "/api/moondream/api-key", { apiKey: `${key}-${n}` });
      return s;
    };
    const callsOf = (prefix: string) => fake.calls.filter((c) => c.key?.startsWith(prefix)).length;

    // Each fault, always on: the answer the person gets, and how many attempts reached the provider.
    const cases: Array<[mode: string, label: string, expected: number[]]> = [
      ["fail-429", "429 Too Many Requests with Retry-After: 1, on every attempt", [429]],
      ["fail-500", "500 on every attempt", [502]],
      ["garbage", "200 with an HTML page instead of JSON", [502]],
      ["wrong-shape", "200 JSON of the wrong shape", [502]],
      ["hang", `no answer at all (past MOONDREAM_TIMEOUT_MS = ${TIMEOUT_MS} ms)`, [504]],
    ];
    for (const [mode, label, expected] of cases) {
      const s = await userWithKey(mode);
      const before = callsOf(mode);
      const started = performance.now();
      const answer = await readProblem(await s.request("POST", "/api/moondream/detect", detect, { timeoutMs: 60_000 }));
      const ms = performance.now() - started;
      const attempts = callsOf(mode) - before;
      const ok = expected.includes(answer.status) && answer.isProblem && DOCUMENTED.has(answer.status) && (answer.status !== 429 || answer.retryAfter !== null);
      f.check(
        `provider: ${label}`,
        `${expected.join("/")} problem JSON${expected.includes(429) ? " with Retry-After" : ""}`,
        `${answer.status}${answer.isProblem ? " problem JSON" : " NOT problem JSON"}${answer.retryAfter ? `, Retry-After ${answer.retryAfter}` : ""} after ${Math.round(ms)} ms and ${attempts} provider attempt(s): "${answer.detail}"`,
        ok,
      );
    }

    // Retries: a provider that fails twice then answers is invisible to the person; Retry-After is waited out.
    {
      const s = await userWithKey("flaky-500-2");
      const response = await s.request("POST", "/api/moondream/detect", detect);
      const attempts = callsOf("flaky-500-2");
      f.check(
        "provider: 500, 500, then a normal answer",
        "200 after 3 attempts (MOONDREAM_MAX_RETRIES=2, backoff)",
        `${response.status} after ${attempts} attempts`,
        response.status === 200 && attempts === 3,
      );
    }
    {
      const s = await userWithKey("flaky-429-1");
      const started = performance.now();
      const response = await s.request("POST", "/api/moondream/detect", detect);
      const ms = performance.now() - started;
      f.check(
        "provider: 429 with Retry-After: 1, then a normal answer",
        "200, the retry sent no earlier than 1 s later",
        `${response.status} after ${Math.round(ms)} ms`,
        response.status === 200 && ms >= 950,
      );
    }

    // The shared key's free call is reserved before the call and given back when the provider fails it.
    {
      const s = await userWithKey(null);
      fake.failNext(500, 3);
      const failed = await readProblem(await s.request("POST", "/api/moondream/detect", detect));
      const me = await s.json<{ sharedKeyUsageCount: number }>("GET", "/api/auth/me");
      f.check(
        "provider: 500 on all 3 attempts of a free (shared-key) call",
        "502 problem JSON, free calls used stays 0",
        `${failed.status}${failed.isProblem ? " problem JSON" : ""}, free calls used ${me.sharedKeyUsageCount}`,
        failed.status === 502 && failed.isProblem && me.sharedKeyUsageCount === 0,
      );
      const ok = await s.request("POST", "/api/moondream/detect", detect);
      const after = await s.json<{ sharedKeyUsageCount: number }>("GET", "/api/auth/me");
      f.check(
        "provider recovered (next free call)",
        "200, free calls used 1",
        `${ok.status}, free calls used ${after.sharedKeyUsageCount}`,
        ok.status === 200 && after.sharedKeyUsageCount === 1,
      );
    }

    // An outage under concurrent use, then recovery: 20 calls while the provider fails everything, then 20 after.
    {
      const users = await Promise.all(Array.from({ length: 20 }, (_, i) => userWithKey(`outage-${i}`)));
      fake.failNext(503, 1000);
      const during = await Promise.all(users.map(async (s) => readProblem(await s.request("POST", "/api/moondream/detect", detect))));
      fake.recover();
      const bad = during.filter((a) => !(a.isProblem && DOCUMENTED.has(a.status)));
      f.check(
        "provider: 503 on every call during an outage, 20 users at once",
        "documented status with problem JSON for each",
        `${during
          .map((a) => a.status)
          .sort()
          .join(",")}; ${bad.length} undocumented or not problem JSON`,
        bad.length === 0,
      );
      const after = await Promise.all(users.map((s) => s.request("POST", "/api/moondream/detect", detect)));
      const healthy = await fetch(`${app.url}/readyz`);
      f.check(
        "provider back after the outage",
        "every next call 200, /readyz 200, no restart",
        `${after.filter((r) => r.status === 200).length}/20 answered 200, /readyz ${healthy.status}, app pid alive: ${app.process.exitCode === null}`,
        after.every((r) => r.status === 200) && healthy.status === 200 && app.process.exitCode === null,
      );
    }
    const ours500 = app.logs.join("\n").match(/"statusCode":500/g)?.length ?? 0;
    f.check("whole provider run", "no 500 from the app", `${ours500} responses with status 500 in the app's log tail`, ours500 === 0);
  } finally {
    await app.stop();
    await fake.close();
    await pg.stop();
  }
  return f.section("Provider faults (fake Moondream misbehaving)");
}
