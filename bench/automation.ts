// Automation benchmark: 10 000 queued webhook events delivered by the app's queue (the webhook outbox drained
// by a graphile-worker task in the app process in batches held by row locks, signed, through the guarded HTTP client) to a
// loopback receiver, against the bench process posting the same signed payloads straight to the receiver
// in a loop. Both start from a burst of 10 000 events made at one instant, so "event → receipt" includes
// the wait in line for both.
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { signedHeaders } from "#server/webhooks/delivery";
import { WAKE_DELIVERIES_CALL } from "#server/jobs/wake";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { machineLoad, ms, postmasterPid, processCpuMs, table, treeCpu, treeCpuBetween, verdict, type TreeCpu } from "./lib";

const EVENTS = 10_000;

interface Receiver {
  url: string;
  /** Receipt time (ms, bench clock) per webhook-id, and how many times each id arrived. */
  receipts: Map<string, { at: number; times: number }>;
  badSignatures: number;
  secret: string;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: "", receipts: new Map(), badSignatures: 0, secret: "", close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.timeOrigin + performance.now();
      const id = String(req.headers["webhook-id"]);
      try {
        new Webhook(receiver.secret).verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>);
      } catch {
        receiver.badSignatures++;
      }
      const seen = receiver.receipts.get(id);
      if (seen) seen.times++;
      else receiver.receipts.set(id, { at, times: 1 });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function waitForAll(receiver: Receiver, ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => !receiver.receipts.has(id))) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Outcome {
  eventsPerSecond: number;
  p50: number;
  p99: number;
  delivered: number;
  duplicates: number;
}

function outcome(receiver: Receiver, ids: string[], startedAt: number): Outcome {
  const latencies: number[] = [];
  let duplicates = 0;
  let last = startedAt;
  for (const id of ids) {
    const receipt = receiver.receipts.get(id);
    if (!receipt) continue;
    latencies.push(receipt.at - startedAt);
    duplicates += receipt.times - 1;
    last = Math.max(last, receipt.at);
  }
  latencies.sort((a, b) => a - b);
  return {
    eventsPerSecond: latencies.length / ((last - startedAt) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    delivered: latencies.length,
    duplicates,
  };
}

function payload(i: number) {
  return {
    type: "detection_made",
    event: "detection_made",
    timestamp: new Date().toISOString(),
    data: { object: "person", detected: true, timestamp: new Date().toISOString(), boxCount: (i % 5) + 1 },
  };
}

/** The bench process posting the signed payloads itself, `lanes` loops side by side, keep-alive. */
async function direct(receiver: Receiver, lanes: number, events = EVENTS): Promise<Outcome> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: lanes });
  const url = new URL(receiver.url);
  const ids = Array.from({ length: events }, (_, i) => `msg_direct${lanes}_${events}_${i}`);
  const startedAt = performance.timeOrigin + performance.now();
  let next = 0;
  const post = (id: string, body: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          agent,
          // Signed as the app signs (node:crypto), so the baseline pays no more for signing than the app does.
          headers: { ...signedHeaders(receiver.secret, id, body), "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on("end", resolve);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < events) {
        const i = next++;
        await post(ids[i]!, JSON.stringify(payload(i)));
      }
    }),
  );
  agent.destroy();
  return outcome(receiver, ids, startedAt);
}

/**
 * A burst of delivery rows, due now, and their wake-up job — what publishEvent writes one event at a time (the job
 * key folds a burst's wake-ups into one waiting job) — in one statement.
 */
async function burst(sql: postgres.Sql, userId: string, prefix: string, count: number): Promise<void> {
  await sql`
    with made as (
      insert into webhook_deliveries (id, user_id, event_type, payload, next_attempt_at)
      select ${prefix} || i, ${userId}, 'detection_made',
             jsonb_build_object('type', 'detection_made', 'event', 'detection_made', 'timestamp', now(),
                                'data', jsonb_build_object('object', 'person', 'detected', true, 'timestamp', now(), 'boxCount', i % 5 + 1)),
             now()
      from generate_series(0, ${count - 1}) as i
      returning id
    )
    select (select count(*) from made) as queued, (${sql.unsafe(WAKE_DELIVERIES_CALL)}).id as wake_job
  `;
}

export async function runAutomationBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const receiver = await startReceiver();
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-automation"), WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8", LOG_LEVEL: "warn" });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "integrator", password: "bench-password" }),
    });
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const { id: userId } = (await signup.json()) as { id: string };
    const headers = { cookie, "content-type": "application/json", origin: app.url };
    await fetch(`${app.url}/api/webhooks/settings`, {
      method: "POST",
      headers,
      body: JSON.stringify({ webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" }),
    });
    receiver.secret = ((await (await fetch(`${app.url}/api/webhooks/secret`, { headers })).json()) as { secret: string }).secret;
    // Warm both paths (connections, JIT) before timing.
    await fetch(`${app.url}/api/webhooks/test`, { method: "POST", headers });

    // The outbox's own path warmed too (its claim and outcome statements prepared, the drain JIT-compiled), with a
    // small burst of the same kind, and the direct loop's, so neither is timed cold.
    await burst(sql, userId, "msg_warm_", 1_000);
    await waitForAll(
      receiver,
      Array.from({ length: 1_000 }, (_, i) => `msg_warm_${i}`),
      60_000,
    );
    await direct(receiver, 1, 1_000);

    // CPU of each process during the queued burst: the app, PostgreSQL (postmaster and backends), this process (the receiver).
    const postmaster = await postmasterPid(sql);
    const cpuBefore = { app: treeCpu(app.process.pid!), pg: treeCpu(postmaster), bench: processCpuMs("self") };

    // The burst: 10 000 delivery rows, due now, and their wake-up job — what publishEvent writes one event
    // at a time (the job key folds a burst's wake-ups into one waiting job) — in one statement.
    const ids = Array.from({ length: EVENTS }, (_, i) => `msg_queued_${i}`);
    const startedAt = performance.timeOrigin + performance.now();
    await burst(sql, userId, "msg_queued_", EVENTS);
    const enqueuedMs = performance.timeOrigin + performance.now() - startedAt;
    await waitForAll(receiver, ids, 10 * 60_000);
    const queued = outcome(receiver, ids, startedAt);
    const cpuOf = (before: TreeCpu, pid: number) => {
      const spent = treeCpuBetween(before, treeCpu(pid));
      return spent.self + spent.children;
    };
    const queuedCpu = { app: cpuOf(cpuBefore.app, app.process.pid!), pg: cpuOf(cpuBefore.pg, postmaster), bench: processCpuMs("self") - cpuBefore.bench };
    const [counted] = await sql<{ delivered: string }[]>`select count(*) filter (where status = 'delivered') as delivered from webhook_deliveries where id like 'msg_queued_%'`;

    const loopCpuBefore = processCpuMs("self");
    const loop = await direct(receiver, 1);
    const loopCpu = processCpuMs("self") - loopCpuBefore;
    const lanes = await direct(receiver, 16);
    const ratio = queued.eventsPerSecond / loop.eventsPerSecond;
    const perThousand = (cpuMs: number) => `${Math.round((cpuMs * 1000) / EVENTS)} ms`;
    const ok = queued.delivered === EVENTS && queued.duplicates === 0 && receiver.badSignatures === 0;
    const row = (name: string, o: Outcome) => [
      name,
      Math.round(o.eventsPerSecond).toLocaleString("en"),
      ms(o.p50),
      ms(o.p99),
      `${o.delivered.toLocaleString("en")} / ${o.duplicates}`,
    ];
    return [
      "## Automation",
      "",
      `### ${EVENTS.toLocaleString("en")} webhook events to a loopback receiver (${machineLoad()})`,
      "",
      "Event → receipt is measured from the instant the whole burst was made, so it includes the wait in line.",
      "",
      table(
        ["path", "events/s", "p50 event→receipt", "p99 event→receipt", "received / duplicates"],
        [
          row("queued: PostgreSQL outbox, batches held by row locks (16 POSTs at a time per destination), signed, guarded client", queued),
          row("direct: signed POSTs in one loop (baseline)", loop),
          row("direct: signed POSTs in 16 loops", lanes),
        ],
      ),
      "",
      `Writing the 10 000 events and jobs took ${ms(enqueuedMs)}. Delivery rows marked delivered: ${Number(counted?.delivered ?? 0).toLocaleString("en")}; signatures refused by the receiver: ${receiver.badSignatures}.`,
      "",
      "CPU per 1,000 events, from /proc (the receiver verifies every signature with the standardwebhooks package in the bench process, in both paths):",
      "",
      table(
        ["path", "app", "PostgreSQL", "bench process (receiver; direct: sender too)", "total"],
        [
          ["queued", perThousand(queuedCpu.app), perThousand(queuedCpu.pg), perThousand(queuedCpu.bench), perThousand(queuedCpu.app + queuedCpu.pg + queuedCpu.bench)],
          ["direct, one loop", "—", "—", perThousand(loopCpu), perThousand(loopCpu)],
        ],
      ),
      "",
      table(
        ["target", "measured", "verdict"],
        [
          ["queued ≥ 0.8 × direct loop events/s", `${ratio.toFixed(2)} ×`, verdict(ratio >= 0.8)],
          ["no event lost or duplicated", `${EVENTS - queued.delivered} lost, ${queued.duplicates} duplicated`, verdict(ok)],
        ],
      ),
    ].join("\n");
  } finally {
    await sql.end();
    await app.stop();
    await receiver.close();
    await pg.stop();
  }
}
