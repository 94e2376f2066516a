// Moondream calls per hour and feature (GET /api/moondream/usage): every feature's call is counted under its
// name, a call the provider failed is not, each user sees only their own, and hours are UTC hours whatever the
// database session's time zone.
import { inject, afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KyselyPlugin } from "kysely";
import { createDb, type DB } from "#db/index";
import { countCall, forgetCall, recordCall, usage } from "#server/vision/usage";
import type { VisionUsage } from "#app/schemas/vision";
import { signUpUser, type TestUser } from "../support/client";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

let stack: VisionStack;
let frame: string;
let kolkata: DB;

beforeAll(async () => {
  stack = await startVisionStack();
  frame = await markerFrame();
  // A session time zone half an hour off UTC: a naive date_trunc('hour', …) would bucket at :30 UTC.
  kolkata = createDb(inject("databaseUrl"), 1, { TimeZone: "Asia/Kolkata" });
});
afterAll(async () => {
  await kolkata?.destroy();
  await stack?.stop();
});

const usageOf = async (user: TestUser): Promise<VisionUsage> => {
  const response = await user.client.get("/api/moondream/usage");
  expect(response.status).toBe(200);
  return response.json();
};

describe("Moondream calls per hour and feature", () => {
  it("counts each feature's calls under its name, in this UTC hour", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const ok = async (path: string, body: unknown) => expect((await user.client.post(path, body)).status).toBe(200);
    await ok("/api/moondream/caption", { imageData: frame });
    await ok("/api/moondream/caption", { imageData: frame });
    await ok("/api/moondream/caption", { imageData: frame, storyMode: true });
    await ok("/api/moondream/point", { imageData: frame, object: "red" });
    await ok("/api/moondream/detect", { imageData: frame, object: "red" });
    await ok("/api/moondream/scoreboard", { imageData: frame, sport: "football" });
    await ok("/api/people-count/count", { imageData: frame });
    await ok("/api/camera-assistant/analyze", { imageBase64: frame.split(",")[1], targetLook: "Natural" });
    await ok("/api/moondream/query", { imageData: frame, question: "Who crossed?" });

    const result = await usageOf(user);
    expect(result.currentHour).toMatch(/T\d\d:00:00\.000Z$/);
    expect(result.totals).toEqual([
      { feature: "captions", calls: 2 },
      { feature: "story", calls: 1 },
      { feature: "points", calls: 1 },
      { feature: "detection", calls: 1 },
      { feature: "people_count", calls: 1 },
      { feature: "scoreboard", calls: 1 },
      { feature: "shot_advice", calls: 1 },
      { feature: "event_description", calls: 1 },
    ]);
    expect(new Set(result.hours.map((h) => h.hour))).toEqual(new Set([result.currentHour]));
    expect(result.hours.reduce((sum, h) => sum + h.calls, 0)).toBe(9);
  });

  it("does not count a call the provider failed or a frame refused before calling, and shows each user only their own", async () => {
    const failing = await signUpUser({ baseUrl: stack.url });
    expect((await failing.client.post("/api/moondream/api-key", { apiKey: `fail-500-${failing.id.slice(0, 8)}` })).status).toBe(200);
    expect((await failing.client.post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBe(502);
    expect((await failing.client.post("/api/moondream/detect", { imageData: "data:image/png;base64,AAAA", object: "red" })).status).toBe(422);
    expect((await usageOf(failing)).totals).toEqual([]);

    const other = await signUpUser({ baseUrl: stack.url });
    expect((await other.client.post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBe(200);
    expect((await usageOf(other)).totals).toEqual([{ feature: "points", calls: 1 }]);
    expect(await usageOf(failing)).toMatchObject({ hours: [], totals: [] });
    expect((await fetch(`${stack.url}/api/moondream/usage`)).status).toBe(401);
  });

  it("buckets calls by UTC hour over the last 24 hours, whatever the session's time zone", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const at = (iso: string) => new Date(iso);
    await recordCall(kolkata, user.id, "monitors", at("2026-03-10T09:59:59Z"));
    await recordCall(kolkata, user.id, "monitors", at("2026-03-10T09:00:00Z"));
    await recordCall(kolkata, user.id, "event_description", at("2026-03-10T09:31:00Z"));
    await recordCall(kolkata, user.id, "captions", at("2026-03-09T10:15:00Z")); // 24 h before this hour: left out
    await recordCall(kolkata, user.id, "captions", at("2026-03-09T11:00:00Z"));
    expect(await usage(kolkata, user.id, at("2026-03-10T10:05:00Z"))).toEqual({
      currentHour: "2026-03-10T10:00:00.000Z",
      hours: [
        { hour: "2026-03-09T11:00:00.000Z", feature: "captions", calls: 1 },
        { hour: "2026-03-10T09:00:00.000Z", feature: "event_description", calls: 1 },
        { hour: "2026-03-10T09:00:00.000Z", feature: "monitors", calls: 2 },
      ],
      totals: [
        { feature: "captions", calls: 1 },
        { feature: "event_description", calls: 1 },
        { feature: "monitors", calls: 2 },
      ],
    });
  });

  it("takes a failed call back from the hour it was counted in, and shows no hour left without calls", async () => {
    // A call is counted as it goes out; one failed after the hour turned is taken back from the hour it started in.
    const user = await signUpUser({ baseUrl: stack.url });
    const hour = await recordCall(kolkata, user.id, "detection", new Date("2026-03-10T09:59:59.900Z"));
    expect(hour.toISOString()).toBe("2026-03-10T09:00:00.000Z");
    await recordCall(kolkata, user.id, "detection", new Date("2026-03-10T09:10:00Z"));
    const captionHour = await recordCall(kolkata, user.id, "captions", new Date("2026-03-10T09:59:59.900Z"));
    await recordCall(kolkata, user.id, "captions", new Date("2026-03-10T10:00:00.100Z"));
    await forgetCall(kolkata, user.id, "detection", hour);
    await forgetCall(kolkata, user.id, "captions", captionHour);
    await forgetCall(kolkata, user.id, "captions", captionHour); // already at 0: never below
    expect(await usage(kolkata, user.id, new Date("2026-03-10T10:05:00Z"))).toEqual({
      currentHour: "2026-03-10T10:00:00.000Z",
      hours: [
        { hour: "2026-03-10T09:00:00.000Z", feature: "detection", calls: 1 },
        { hour: "2026-03-10T10:00:00.000Z", feature: "captions", calls: 1 },
      ],
      totals: [
        { feature: "captions", calls: 1 },
        { feature: "detection", calls: 1 },
      ],
    });
  });

  it("writes the counts of calls that start while one is being written in one statement, each in its place", async () => {
    const [one, two] = await Promise.all([signUpUser({ baseUrl: stack.url }), signUpUser({ baseUrl: stack.url })]);
    let writes = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        writes++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const db = kolkata.withPlugin(counting);
    // The first goes at once; the others arrive while it is in flight and go together in the next statement.
    const calls = [
      countCall(db, one.id, "detection"),
      countCall(db, one.id, "detection"),
      countCall(db, one.id, "captions"),
      countCall(db, two.id, "detection"),
      countCall(db, one.id, "detection"),
      countCall(db, two.id, "points"),
    ];
    await Promise.all(calls.map((call) => call.kept()));
    expect(writes).toBe(2);
    // A failed call in the batch is taken back from its own user's and feature's count.
    await calls[5]!.dropped();
    expect((await usageOf(one)).totals).toEqual([
      { feature: "captions", calls: 1 },
      { feature: "detection", calls: 3 },
    ]);
    expect((await usageOf(two)).totals).toEqual([{ feature: "detection", calls: 1 }]);
  });
});
