// PostgreSQL restarted under load: 10 users keep listing, uploading and reading their account while the database
// stops for a few seconds and starts again. During the gap the app must answer 503 problem JSON with Retry-After
// (never a 500, never a dropped connection), /readyz must say 503, and afterwards everything must work again without
// restarting the app; every upload acknowledged before, during or after the gap must be there.
import { rmSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#db/embedded";
import { markerImage, toDataUrl } from "../fakes/moondream/images";
import { Session, sleep, waitFor } from "../load/lib";
import { freePort, startApp, tempDir } from "../support/stack";
import { Findings, readProblem, type Section } from "./report";

const USERS = 10;
const DOWN_MS = 5000;

interface Answer {
  t: number;
  route: string;
  status: number;
  problem: boolean;
  retryAfter: string | null;
  error?: string;
}

export async function postgresRestart(): Promise<Section> {
  const f = new Findings();
  const dir = tempDir("faults-pg");
  const port = await freePort();
  const options = { dir: path.join(dir, "postgres"), port, database: "framewise_faults" };
  let pg: EmbeddedDatabase = await startEmbeddedPostgres(options);
  const app = await startApp({ DATABASE_URL: pg.url, DATA_DIR: tempDir("faults-pg-data"), MOONDREAM_API_KEY: "unused" });
  const answers: Answer[] = [];
  const acked: Array<{ s: Session; id: string }> = [];
  const t0 = Date.now();
  let running = true;
  try {
    const jpeg = toDataUrl(await markerImage({ width: 320, height: 180 }));
    const sessions = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        const s = new Session(app.url);
        await s.signUp(`faults_pg_${i}`);
        return s;
      }),
    );
    const record = async (s: Session, method: string, route: string, body?: unknown) => {
      const t = Date.now() - t0;
      try {
        const response = await s.request(method, route, body, { timeoutMs: 30_000 });
        const answer = response.status < 400 ? { status: response.status, isProblem: false, retryAfter: null } : await readProblem(response);
        answers.push({ t, route: `${method} ${route.split("?")[0]}`, status: answer.status, problem: answer.isProblem, retryAfter: answer.retryAfter });
        return response;
      } catch (error) {
        answers.push({ t, route: `${method} ${route.split("?")[0]}`, status: 0, problem: false, retryAfter: null, error: String((error as Error).cause ?? error) });
        return null;
      }
    };
    const userLoop = async (s: Session) => {
      while (running) {
        const uploaded = await record(s, "POST", "/api/photos", { imageData: jpeg, captureMode: "single" });
        if (uploaded?.status === 201) acked.push({ s, id: ((await uploaded.json()) as { id: string }).id });
        await record(s, "GET", "/api/photos?limit=20");
        await record(s, "GET", "/api/auth/me");
        await sleep(100);
      }
    };
    // Error messages the app logged (its log keeps only a tail, so it is read during the run too).
    const messages = new Set<string>();
    const readiness: Array<{ t: number; status: number }> = [];
    const readyLoop = async () => {
      while (running) {
        const response = await fetch(`${app.url}/readyz`).catch(() => null);
        readiness.push({ t: Date.now() - t0, status: response?.status ?? 0 });
        for (const m of app.logs.join("").match(/"message":"[^"]{0,160}/g) ?? []) messages.add(m);
        await response?.arrayBuffer();
        await sleep(250);
      }
    };
    const loops = [...sessions.map(userLoop), readyLoop()];

    await sleep(4000);
    const stoppedAt = Date.now() - t0;
    await pg.stop();
    await sleep(DOWN_MS);
    pg = await startEmbeddedPostgres(options);
    const backAt = Date.now() - t0;
    // Recovered: /readyz and a user's request both succeed, with no restart of the app.
    const recoveredAt = await waitFor(
      "the app to recover",
      async () => {
        const ready = await fetch(`${app.url}/readyz`);
        const me = await sessions[0]!.request("GET", "/api/auth/me");
        return ready.status === 200 && me.status === 200 ? Date.now() - t0 : false;
      },
      60_000,
      200,
    );
    await sleep(4000);
    running = false;
    await Promise.all(loops);

    const gap = answers.filter((a) => a.t >= stoppedAt && a.t < backAt);
    const after = answers.filter((a) => a.t >= recoveredAt + 1000);
    const count = (list: Answer[]) => {
      const byStatus = new Map<string, number>();
      for (const a of list)
        byStatus.set(
          a.error ? `network error (${a.error.slice(0, 60)})` : String(a.status),
          (byStatus.get(a.error ? `network error (${a.error.slice(0, 60)})` : String(a.status)) ?? 0) + 1,
        );
      return [...byStatus].map(([k, v]) => `${v}× ${k}`).join(", ") || "none";
    };
    const badGap = gap.filter((a) => !(a.status < 400 || (a.status === 503 && a.problem && a.retryAfter)));
    f.check(
      `PostgreSQL stopped for ${DOWN_MS / 1000} s under load (${USERS} users uploading, listing, reading /api/auth/me)`,
      "only 2xx (finished before) or 503 problem JSON with Retry-After; no 500, no dropped connection",
      `${gap.length} requests in the gap: ${count(gap)}`,
      badGap.length === 0 && gap.some((a) => a.status === 503),
    );
    const readyGap = readiness.filter((r) => r.t >= stoppedAt + 500 && r.t < backAt);
    f.check("/readyz while PostgreSQL is down", "503", readyGap.map((r) => r.status).join(",") || "no samples", readyGap.length > 0 && readyGap.every((r) => r.status === 503));
    f.check(
      "PostgreSQL started again (same data directory and port)",
      "the app recovers by itself, no restart: /readyz 200 and requests 2xx",
      `recovered ${((recoveredAt - backAt) / 1000).toFixed(1)} s after PostgreSQL was back; app process still the same: ${app.process.exitCode === null}; answers from 1 s after recovery: ${count(after)}`,
      app.process.exitCode === null && after.length > 0 && after.every((a) => a.status >= 200 && a.status < 300),
    );

    // Every acknowledged upload is there, with both blobs.
    let missing = 0;
    for (const { s, id } of acked) {
      const image = await s.request("GET", `/api/photos/${id}/image`);
      const thumbnail = await s.request("GET", `/api/photos/${id}/thumbnail`);
      if (image.status !== 200 || thumbnail.status !== 200) missing++;
    }
    f.lost = missing;
    f.check(
      "every upload answered 201 (before, during, after the gap)",
      "image and thumbnail readable afterwards",
      `${acked.length - missing} of ${acked.length} readable`,
      missing === 0,
    );
    for (const m of app.logs.join("").match(/"message":"[^"]{0,160}/g) ?? []) messages.add(m);
    if (messages.size) f.notes.push(`Errors in the app's log tail: ${[...messages].slice(0, 8).join(" · ")}`);
    f.notes.push(`Timeline (ms from start): PostgreSQL stopped at ${stoppedAt}, running again at ${backAt}, app recovered at ${recoveredAt}.`);
  } catch (error) {
    // What the app said is the finding: keep its last log lines with the failure.
    throw new Error(`${(error as Error).message}\napp exit code ${app.process.exitCode}; app log tail:\n${app.logs.slice(-15).join("").slice(-3000)}`, { cause: error });
  } finally {
    running = false;
    await app.stop();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return f.section("PostgreSQL restarted during load");
}
