// Domain events (server/events.ts): emit runs the registered listeners on the caller's transaction, so what they
// write (the webhook outbox row, the alert rule's claim and send job) commits or rolls back with the change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CountSession } from "#app/schemas/people-count";
import type * as Database from "#db/index";
import type * as Events from "#server/events";
import { signUpUser, type TestUser } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, type Receiver } from "../support/webhook-receiver";

let app: TestApp;
let receiver: Receiver;
let databaseUrl: string;
let events: typeof Events;

beforeAll(async () => {
  databaseUrl = await createOwnDatabase();
  // The app delivers the outbox and runs the alert jobs; this file emits in its own process, on the app's database.
  app = await startApp({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "4", DATA_DIR: tempDir("events"), WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8" });
  receiver = await startReceiver();
  events = await import("#server/events");
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

/** The in-process database, with the listeners registered as an app process registers them at start-up. */
async function inProcess(): Promise<typeof Database.db> {
  process.env.LOG_LEVEL = "silent";
  const { initDb, db } = await import("#db/index");
  initDb(databaseUrl, 2);
  (await import("#server/automation/listeners")).registerListeners();
  return db;
}

/** A user whose webhook is on and who has a people-count alert rule above 3, with a counting session. */
async function userWithListeners(): Promise<{ user: TestUser; session: CountSession }> {
  const user = await signUpUser({ baseUrl: app.url });
  const saved = await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" });
  expect(saved.status).toBe(200);
  receiver.secret = ((await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
  expect((await user.client.post("/api/alerts/rules", { kind: "people_count", threshold: 3, email: true, sms: false })).status).toBe(201);
  const session = (await (await user.client.post("/api/people-count/sessions", { cameraName: "Hall" })).json()) as CountSession;
  return { user, session };
}

describe("domain events", () => {
  it("refuses to emit before any listeners are registered, rather than dropping the event", async () => {
    const session = { id: "00000000-0000-4000-8000-000000000000" } as CountSession;
    await expect(events.emit({} as Database.DB, { type: "count_session.finished", userId: session.id, session })).rejects.toThrow(/registered/);
  });

  it("delivers nothing from a transaction that rolls back, and exactly once from one that commits", async () => {
    const db = await inProcess();
    const { user, session } = await userWithListeners();
    const finished = { ...session, isActive: false, finishedAt: new Date().toISOString() };
    const happened: Events.DomainEvent[] = [
      { type: "count.recorded", userId: user.id, count: 10, session },
      { type: "count_session.finished", userId: user.id, session: finished },
    ];
    const outbox = () => db().selectFrom("webhook_deliveries").select(["id", "event_type"]).where("user_id", "=", user.id).execute();
    const lastFired = async () => ((await (await user.client.get("/api/alerts/rules")).json()) as Array<{ lastFiredAt: string | null }>)[0]!.lastFiredAt;

    const rollback = new Error("the change failed after its events");
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await events.emit(trx, ...happened);
          throw rollback;
        }),
    ).rejects.toBe(rollback);
    expect(await outbox()).toEqual([]);
    expect(await lastFired()).toBeNull();

    const before = receiver.requests.length;
    await db()
      .transaction()
      .execute((trx) => events.emit(trx, ...happened));
    const queued = await outbox();
    expect(queued.map((row) => row.event_type)).toEqual(["people_count_session_finished"]);
    expect(await lastFired()).not.toBeNull();
    await receiver.waitFor((r) => r.requests.length > before);
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.id).toBe(queued[0]!.id);
    expect(sent[0]!.verified).toBe(true);
    expect(sent[0]!.payload).toMatchObject({ type: "people_count_session_finished", data: { sessionId: session.id, cameraName: "Hall" } });
  });
});
