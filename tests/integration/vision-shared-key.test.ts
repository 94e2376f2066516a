// The shared Moondream key under pressure, over HTTP against the fake Moondream on the real database: the
// pace limit held by two app processes together, fair turns between users, a person's call ahead of loops,
// 402 only when the 100 free calls are truly used, and the operator's daily pool.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FREE_POOL_USED_UP, FREE_SHARED_CALLS, SHARED_QUOTA_USED_UP, VISION_PROBLEM, type FreeCalls } from "#app/schemas/vision";
import { hashKey } from "#server/vision/pacer";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { signUpUser, type TestUser } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

const RATE = 4;
/** This file's own shared keys: pace slots and the daily pool are kept per key, apart from other suites. */
const PACED_KEY = `shared-paced-${randomBytes(4).toString("hex")}`;
const POOL_KEY = `shared-pool-${randomBytes(4).toString("hex")}`;

let fake: FakeMoondream;
let one: VisionStack;
let two: TestApp;
let sql: postgres.Sql;
let frame: string;

beforeAll(async () => {
  fake = await startFakeMoondream();
  const env = { MOONDREAM_API_KEY: PACED_KEY, MOONDREAM_REQUESTS_PER_SECOND: String(RATE) };
  one = await startVisionStack(env, fake);
  // A second app process of the same deployment: same database, same key, same provider.
  two = await startApp({
    DATABASE_URL: inject("databaseUrl"),
    DATABASE_POOL_SIZE: "5",
    DATA_DIR: tempDir("vision-two"),
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_TIMEOUT_MS: "15000",
    ...env,
  });
  sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  frame = await markerFrame();
});
afterAll(async () => {
  await sql.end();
  await two.stop();
  await one.stop();
  await fake.close();
});

const point = (user: TestUser, body: Record<string, unknown> = {}) => user.client.post("/api/moondream/point", { imageData: frame, object: "red", ...body });
const freeCalls = async (user: TestUser) => (await (await user.client.get("/api/moondream/free-calls")).json()) as FreeCalls;
const callsWith = (key: string) => fake.calls.filter((c) => c.key === key);

/** Resolves once the fake has seen `count` more calls with the key (the fake's own record, no timers in the test). */
async function providerSaw(key: string, count: number, since: number): Promise<void> {
  while (callsWith(key).length - since < count) await new Promise((resolve) => setImmediate(resolve));
}

describe("the pace limit across app processes", () => {
  it(`holds ${RATE} calls/s per key for two processes on one database together`, async () => {
    const users = await Promise.all([one.url, one.url, one.url, two.url, two.url, two.url].map((baseUrl) => signUpUser({ baseUrl })));
    const before = callsWith(PACED_KEY).length;
    const responses = await Promise.all(users.flatMap((user) => Array.from({ length: 4 }, () => point(user))));
    expect(responses.map((r) => r.status)).toEqual(Array(24).fill(200));
    const times = callsWith(PACED_KEY)
      .slice(before)
      .map((c) => c.at)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(24);
    // Counted on the fake's own clock: in no second did more than the rate arrive (plus slack for a loaded
    // machine), and the 24 calls took about 23 intervals — each process alone at the rate would take half that.
    const perSecond = times.map((start) => times.filter((t) => t >= start && t < start + 1000).length);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(RATE + 2);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(0.8 * (23 / RATE) * 1000);
  });
});

describe("fair turns on the shared key", () => {
  it("serves four users' few calls while a fifth fires 60 at once, and refuses the flood honestly", async () => {
    const [flood, ...others] = await Promise.all(Array.from({ length: 5 }, () => signUpUser({ baseUrl: one.url })));
    const before = callsWith(PACED_KEY).length;
    const flooding = Promise.all(Array.from({ length: 60 }, () => point(flood!)));
    await providerSaw(PACED_KEY, 1, before); // the flood is queued before anyone else asks
    const served = await Promise.all(others.map((user) => Promise.all(Array.from({ length: 3 }, () => point(user)))));
    for (const responses of served) expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);

    const floodResponses = await flooding;
    const ok = floodResponses.filter((r) => r.status === 200).length;
    const busy = floodResponses.filter((r) => r.status === 429);
    expect(ok + busy.length).toBe(60);
    expect(ok).toBeGreaterThan(0);
    const problem = (await busy[0]!.json()) as { detail: string; type: string };
    expect(problem).toMatchObject({ type: VISION_PROBLEM.busy });
    expect(problem.detail).toMatch(/^The shared key is busy; try again in \d+ s$/);
    expect(Number(busy[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Only calls that reached the provider were counted.
    expect((await freeCalls(flood!)).used).toBe(ok);
    for (const user of others) expect((await freeCalls(user)).used).toBe(3);
  });
});

describe("a person's call before the loops", () => {
  it("refuses a loop call that would queue at once (no free call spent) and lets a person's call in ahead of the queue", async () => {
    const [person, ...busyUsers] = (await Promise.all(Array.from({ length: 4 }, () => signUpUser({ baseUrl: one.url })))) as [TestUser, ...TestUser[]];
    const before = callsWith(PACED_KEY).length;
    // Three users' four calls each: a queue of about 3 s at 4/s, long enough to ask into on a loaded machine.
    const queued = Promise.all(busyUsers.flatMap((user) => Array.from({ length: 4 }, () => point(user, { object: "blue" }))));
    await providerSaw(PACED_KEY, 1, before);

    const loop = await point(person, { priority: "loop" });
    expect(loop.status).toBe(429);
    expect(loop.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await loop.json()).toMatchObject({ type: VISION_PROBLEM.busy, detail: expect.stringMatching(/^The shared key is busy; try again in \d+ s$/) });
    expect((await freeCalls(person)).used).toBe(0);

    const asked = await point(person, { priority: "interactive", object: "green" });
    expect(asked.status).toBe(200);
    expect((await queued).map((r) => r.status)).toEqual(Array(12).fill(200));
    // The provider saw the person's call before the last of the queue that was already waiting.
    const order = callsWith(PACED_KEY)
      .slice(before)
      .map((c) => c.body.object);
    expect(order.indexOf("green")).toBeLessThan(order.lastIndexOf("blue"));
  });

  it("rejects an unknown priority with a field error", async () => {
    const user = await signUpUser({ baseUrl: one.url });
    const response = await point(user, { priority: "urgent" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: { priority: ["priority must be interactive or loop"] } });
  });
});

describe("402 means the 100 free calls are truly used", () => {
  it("answers a fresh user's 150 parallel calls with 200 or 429 busy, never 402", async () => {
    const user = await signUpUser({ baseUrl: one.url });
    const responses = await Promise.all(Array.from({ length: 150 }, () => point(user)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 402)).toHaveLength(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect((await freeCalls(user)).used).toBe(statuses.filter((s) => s === 200).length);
  });

  it("with one call left, serves exactly one and answers 402 only after it", async () => {
    const user = await signUpUser({ baseUrl: one.url });
    await sql`update users set shared_key_calls_used = ${FREE_SHARED_CALLS - 1} where id = ${user.id}`;
    const responses = await Promise.all(Array.from({ length: 5 }, () => point(user)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of responses.filter((r) => r.status === 402))
      expect(await refused.json()).toMatchObject({ detail: SHARED_QUOTA_USED_UP, type: VISION_PROBLEM.freeCallsUsedUp });
    expect((await freeCalls(user)).used).toBe(FREE_SHARED_CALLS);
    const after = await point(user);
    expect(after.status).toBe(402);
  });
});

describe("the shared key's daily pool", () => {
  let pool: VisionStack;
  beforeAll(async () => {
    pool = await startVisionStack({ MOONDREAM_API_KEY: POOL_KEY, SHARED_KEY_DAILY_CALLS: "3" }, fake);
  });
  afterAll(() => pool.stop());

  it("refuses key-less calls once today's pool is spent, says how to go on, and tells the studio beforehand", async () => {
    const [first, second, third] = await Promise.all(Array.from({ length: 3 }, () => signUpUser({ baseUrl: pool.url })));
    expect(await freeCalls(first!)).toEqual({ hasMoondreamApiKey: false, used: 0, limit: FREE_SHARED_CALLS, sharedKey: true, poolExhausted: false });
    expect((await Promise.all([point(first!), point(first!)])).map((r) => r.status)).toEqual([200, 200]);
    const statuses = (await Promise.all([point(second!), point(second!)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429]);

    const refused = await point(third!);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(24 * 3600);
    expect(await refused.json()).toMatchObject({ type: VISION_PROBLEM.freePoolUsedUp, detail: FREE_POOL_USED_UP });
    // Nobody was charged for a refused call, and the studio can tell before calling.
    expect(await freeCalls(third!)).toMatchObject({ used: 0, poolExhausted: true });
    expect(await freeCalls(second!)).toMatchObject({ used: 1, poolExhausted: true });
    const [today] = await sql<[{ calls: number }]>`select calls from shared_key_daily_calls where key_hash = ${hashKey(POOL_KEY)} and day = (now() at time zone 'utc')::date`;
    expect(today.calls).toBe(3);

    // A user with their own key is not held back by the pool.
    expect((await third!.client.post("/api/moondream/api-key", { apiKey: `own-${third!.id}` })).status).toBe(200);
    expect((await point(third!)).status).toBe(200);
  });
});
