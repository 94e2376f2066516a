// The webhook outbox shared by two app processes on one database: both drain a burst at once and each event reaches
// the receiver once; a process killed in the middle of a batch (its POSTs unanswered) leaves its rows to the other,
// which sends them at once rather than after a lease runs out; a receiver that holds its answers holds only its own
// deliveries. Events are queued as publishing queues them: the delivery rows and the keyed wake-up job in one statement.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAKE_DELIVERIES_CALL } from "#server/jobs/wake";
import { signUpUser, type TestUser } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, until, type Answer, type Receiver } from "../support/webhook-receiver";

/** Each process's POSTs in flight to one destination. */
const PER_DESTINATION = 4;

let env: Record<string, string>;
let one: TestApp;
let two: TestApp;
let receiver: Receiver;
let database: postgres.Sql;
let user: TestUser;

beforeAll(async () => {
  env = {
    DATABASE_URL: await createOwnDatabase(),
    DATABASE_POOL_SIZE: "3",
    DATA_DIR: tempDir("webhook-outbox"), // one deployment: the same secrets
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8",
    WEBHOOK_CONCURRENCY: String(PER_DESTINATION),
    WEBHOOK_TIMEOUT_MS: "60000", // a held answer stays unanswered for the whole test
  };
  receiver = await startReceiver();
  one = await startApp(env);
  two = await startApp(env);
  database = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  user = await signUpUser({ baseUrl: one.url });
  const saved = await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" });
  expect(saved.status).toBe(200);
  receiver.secret = ((await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
}, 90_000);

afterAll(async () => {
  for (const app of [one, two]) if (app && app.process.exitCode === null) await app.stop("SIGKILL");
  await database?.end();
  await receiver?.close();
});

/** Queues `count` detection_made events for a user, as publishing does; returns their webhook-ids. */
async function queue(prefix: string, count: number, userId = user.id): Promise<string[]> {
  await database`
    with made as (
      insert into webhook_deliveries (id, user_id, event_type, payload, next_attempt_at)
      select ${prefix} || i, ${userId}, 'detection_made',
             jsonb_build_object('type', 'detection_made', 'event', 'detection_made', 'timestamp', now(),
                                'data', jsonb_build_object('object', 'person', 'detected', true, 'timestamp', now(), 'boxCount', 1)),
             now()
      from generate_series(0, ${count - 1}) as i
      returning id
    )
    select (select count(*) from made) as queued, (${database.unsafe(WAKE_DELIVERIES_CALL)}).id as wake_job
  `;
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

const acceptedOnce = (ids: string[]) => (r: Receiver) => ids.every((id) => r.accepted().some((x) => x.id === id));

/** The rows' statuses and attempts, once every row is finished (a batch commits after its last POST is answered). */
function finishedRows(prefix: string) {
  return until(
    () => database<{ status: string; attempts: number; n: string }[]>`
      select status, attempts, count(*) as n from webhook_deliveries where id like ${`${prefix}%`} group by status, attempts order by status, attempts
    `,
    (rows) => rows.every((row) => row.status !== "pending" && row.status !== "retrying"),
  );
}

describe("the webhook outbox with two app processes", () => {
  it("drains one burst from both processes at once and delivers each event exactly once", async () => {
    // Answers wait until more POSTs are in flight than one process ever makes to a destination: both are sending.
    const waiting: (() => void)[] = [];
    let bothSending = false;
    receiver.respond = () => {
      if (bothSending) return { status: 200 };
      return new Promise<Answer>((resolve) => {
        waiting.push(() => resolve({ status: 200 }));
        if (waiting.length > PER_DESTINATION) {
          bothSending = true;
          waiting.splice(0).forEach((answer) => answer());
        }
      });
    };
    const ids = await queue("msg_both_", 400);
    // The keyed wake-up reaches one process; more wake-ups (any process may take each) bring in the other.
    await until(
      async () => {
        if (!bothSending) await database`select graphile_worker.add_job('deliver_webhooks', '{}'::json, max_attempts => 5)`;
        return bothSending;
      },
      (sending) => sending,
    );
    await receiver.waitFor(acceptedOnce(ids), 60_000);

    const received = receiver.requests.filter((r) => r.id.startsWith("msg_both_"));
    expect(received.every((r) => r.verified && r.status === 200)).toBe(true);
    expect(received).toHaveLength(ids.length); // no id twice
    expect(await finishedRows("msg_both_")).toEqual([{ status: "delivered", attempts: 1, n: String(ids.length) }]);
  });

  it("loses nothing when a process is killed mid-batch: the other sends its rows at once, each once", { timeout: 60_000 }, async () => {
    expect(await two.stop()).toBe(0); // only `one` drains the next burst
    const unanswered: Promise<void>[] = [];
    let holding = true;
    receiver.respond = ({ closed }) => {
      if (!holding) return { status: 200 };
      unanswered.push(closed);
      return new Promise<Answer>(() => {}); // no answer: `one` is mid-batch, its rows locked, its POSTs in flight
    };
    const ids = await queue("msg_killed_", 40);
    await receiver.waitFor(() => unanswered.length === PER_DESTINATION);

    two = await startApp(env); // finds the rows held by `one`
    // Every wake-up job waiting now may be taken by `one`, whose running drain absorbs it, and die with it (it did, in
    // CI): `two` must take over on its own, not wait for a job or the per-minute sweep.
    await database`
      delete from graphile_worker._private_jobs
      where locked_at is null and task_id = (select id from graphile_worker._private_tasks where identifier = 'deliver_webhooks')
    `;
    await one.stop("SIGKILL");
    await Promise.all(unanswered); // the killed process's connections are gone: those POSTs were never answered
    holding = false;

    // Before row locks, `one`'s rows waited out a lease of 18 × WEBHOOK_TIMEOUT_MS (three minutes) first.
    await receiver.waitFor(acceptedOnce(ids), 30_000);
    const answered = receiver.requests.filter((r) => r.id.startsWith("msg_killed_") && r.status !== 0);
    expect(answered.every((r) => r.verified && r.status === 200)).toBe(true);
    expect(answered).toHaveLength(ids.length);
    // No outcome of the killed process's batch was written: every row's one attempt is the other process's.
    expect(await finishedRows("msg_killed_")).toEqual([{ status: "delivered", attempts: 1, n: String(ids.length) }]);
  });

  it("keeps delivering to other receivers while one receiver holds every answer", async () => {
    if (one.process.exitCode === null && one.process.signalCode === null) await one.stop(); // one process: `two`
    receiver.respond = () => ({ status: 200 });
    const slow = await startReceiver();
    const release: (() => void)[] = [];
    slow.respond = () => new Promise<Answer>((resolve) => release.push(() => resolve({ status: 200 })));
    const stuck = await signUpUser({ baseUrl: two.url });
    await stuck.client.post("/api/webhooks/settings", { webhookUrl: slow.url, webhookEnabled: true, webhookEventType: "simple" });
    slow.secret = ((await (await stuck.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;

    const slowIds = await queue("msg_slow_", 3 * PER_DESTINATION, stuck.id); // older: claimed first
    await slow.waitFor(() => release.length === PER_DESTINATION); // its slots are full, the rest of its rows wait
    const fastIds = await queue("msg_fast_", 5 * PER_DESTINATION);
    await receiver.waitFor(acceptedOnce(fastIds)); // while every answer of the slow receiver is still held
    expect(release).toHaveLength(PER_DESTINATION); // it never had more than its share in flight

    slow.respond = () => ({ status: 200 });
    release.splice(0).forEach((answer) => answer());
    await slow.waitFor(acceptedOnce(slowIds));
    expect(slow.requests.filter((r) => r.status !== 0)).toHaveLength(slowIds.length);
    expect(await finishedRows("msg_slow_")).toEqual([{ status: "delivered", attempts: 1, n: String(slowIds.length) }]);
    await slow.close();
  });
});
