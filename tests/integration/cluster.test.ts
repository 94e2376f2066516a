// WEB_CONCURRENCY=2 as `npm start` runs it (bin/server.js, the production build): one primary with the embedded
// PostgreSQL under DATA_DIR, two workers on one port. Which worker answered is read from the log (each line names
// its process), never from a response. Both answer with one session, webhooks queued through both go out once,
// a killed worker is replaced, a rolling restart keeps answering, and SIGTERM leaves no process behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isListening } from "#db/embedded";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { freshRequest, logEntries, type LogEntry } from "../support/processes";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { startReceiver, until, type Receiver } from "../support/webhook-receiver";

let app: TestApp;
let postgresPort: number;
let receiver: Receiver;
let user: TestUser;
/** The workers' process ids, from their "worker listening" lines (start-up lines are all kept). */
let workers: number[];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const listeningWorkers = () =>
  logEntries(app)
    .filter((e) => e.msg === "worker listening")
    .map((e) => e.pid!);
const meAnsweredBy = (entries: LogEntry[]) => new Set(entries.filter((e) => e.req?.url === "/api/auth/me" && e.res?.statusCode === 200).map((e) => e.pid));

beforeAll(async () => {
  postgresPort = await freePort();
  receiver = await startReceiver();
  app = await startApp(
    {
      WEB_CONCURRENCY: "2",
      DATA_DIR: tempDir("cluster"),
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      DATABASE_POOL_SIZE: "3",
      WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8",
      WEBHOOK_CONCURRENCY: "2",
    },
    { detached: true },
  );
  // Each process writes its own log lines, asynchronously (server/logger.ts): a worker's "worker listening" may reach
  // the pipe after the primary's "listening", which startApp waited for.
  workers = await until(
    async () => listeningWorkers(),
    (pids) => pids.length >= 2,
  );
  user = await signUpUser({ baseUrl: app.url });
}, 120_000);

afterAll(async () => {
  if (app && app.process.exitCode === null) await app.signalGroup("SIGKILL");
  await receiver?.close();
});

describe("WEB_CONCURRENCY=2 through bin/server.js", () => {
  it("starts two workers on one port, and both answer with one session", async () => {
    expect(workers).toHaveLength(2);
    expect(new Set(workers).size).toBe(2);
    expect(logEntries(app).find((e) => e.msg === "listening")).toMatchObject({ port: app.port, workers: 2 });
    // New connections go to the workers in turn: the session made through one is good on the other.
    await until(
      async () => {
        const me = await freshRequest(`${app.url}/api/auth/me`, { headers: { cookie: user.client.cookieHeader } });
        expect(me.status).toBe(200);
        expect(JSON.parse(me.body)).toMatchObject({ username: user.username });
        return meAnsweredBy(logEntries(app));
      },
      (pids) => workers.every((pid) => pids.has(pid)),
    );
  });

  it("delivers each webhook once while both workers' queues run", async () => {
    const saved = await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" });
    expect(saved.status).toBe(200);
    receiver.secret = ((await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
    const imageData = await jpegDataUrl(64, 48);
    const photos = 6;
    for (let i = 0; i < photos; i += 1) {
      const created = await freshRequest(`${app.url}/api/photos`, {
        method: "POST",
        headers: { cookie: user.client.cookieHeader },
        json: { imageData, autoCapture: true, detectionQuery: "person", detectionBoxes: [{ x_min: 0.1, y_min: 0.1, x_max: 0.3, y_max: 0.3 }] },
      });
      expect(created.status).toBe(201);
    }
    // Every row delivered means every POST of it was made; a second claim of a row would have posted it again.
    await until(
      async () => ((await (await user.client.get("/api/webhooks/deliveries")).json()) as { deliveries: { status: string }[] }).deliveries,
      (deliveries) => deliveries.length === photos && deliveries.every((d) => d.status === "delivered"),
    );
    const ids = receiver.requests.map((r) => r.id);
    expect(ids).toHaveLength(photos);
    expect(new Set(ids).size).toBe(photos);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
  });

  it("replaces a killed worker", async () => {
    const [victim] = workers;
    process.kill(victim!, "SIGKILL");
    const after = await until(
      async () => listeningWorkers(),
      (pids) => pids.some((pid) => !workers.includes(pid)),
    );
    expect(logEntries(app).some((e) => e.msg === "a worker process died; a new one replaces it" && e.workerPid === victim)).toBe(true);
    workers = [...workers.filter((pid) => pid !== victim), ...after.filter((pid) => !workers.includes(pid))];
    expect(workers).toHaveLength(2);
    expect((await freshRequest(`${app.url}/readyz`)).status).toBe(200);
  });

  it("restarts the workers one at a time on SIGUSR2, answering all along", async () => {
    const before = [...workers];
    const seen = listeningWorkers().length;
    process.kill(app.process.pid!, "SIGUSR2");
    // The readiness probe is not logged per request, so the kept log tail still holds the new workers' lines.
    const statuses: number[] = [];
    while (!logEntries(app).some((e) => e.msg === "rolling restart done")) statuses.push((await freshRequest(`${app.url}/readyz`)).status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([200]));
    // The two new workers' own lines (they may reach the pipe after the primary's "done").
    workers = (
      await until(
        async () => listeningWorkers().slice(seen),
        (pids) => pids.length >= 2,
      )
    ).slice(-2);
    expect(workers.some((pid) => before.includes(pid))).toBe(false);
    for (const pid of before) expect(alive(pid)).toBe(false);
    expect((await freshRequest(`${app.url}/api/auth/me`, { headers: { cookie: user.client.cookieHeader } })).status).toBe(200);
    expect(logEntries(app).filter((e) => e.msg === "rolling restart done")).toHaveLength(1);
  });

  it("stops every worker and the embedded PostgreSQL on SIGTERM", async () => {
    expect(await isListening(postgresPort)).toBe(true);
    expect(await app.stop("SIGTERM")).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(await isListening(postgresPort)).toBe(false);
    const stopped = logEntries(app).filter((e) => e.msg === "stopped");
    // Each worker, then the primary (its line has no pid).
    expect(stopped.filter((e) => e.pid !== undefined).map((e) => e.pid)).toEqual(expect.arrayContaining(workers));
    expect(stopped.at(-1)!.pid).toBeUndefined();
  });
});
