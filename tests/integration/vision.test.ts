// The vision service over HTTP against the fake Moondream: keys, the shared free quota, and every AI call.
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FREE_SHARED_CALLS, INVALID_API_KEY, NO_API_KEY, SHARED_QUOTA_USED_UP, VISION_PROBLEM } from "#app/schemas/vision";
import { markerImage, row, toDataUrl } from "../fakes/moondream/images";
import { signUpUser, type TestUser } from "../support/client";
import { openEvents } from "../support/sse";
import { SHARED_KEY, markerFrame, startVisionStack, type VisionStack } from "../support/vision";

let stack: VisionStack;
let sql: postgres.Sql;
let frame: string;

beforeAll(async () => {
  stack = await startVisionStack();
  sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  frame = await markerFrame();
});
afterAll(async () => {
  await sql.end();
  await stack.stop();
});

const newUser = () => signUpUser({ baseUrl: stack.url });
const me = async (user: TestUser) => (await (await user.client.get("/api/auth/me")).json()) as { hasMoondreamApiKey: boolean; sharedKeyUsageCount: number };
const sharedCalls = () => stack.fake.calls.filter((c) => c.key === SHARED_KEY).length;

describe("the user's own Moondream key", () => {
  it("refuses a blank key with the spec's message", async () => {
    const user = await newUser();
    for (const apiKey of ["", "   ", undefined, "has space inside"]) {
      const response = await user.client.post("/api/moondream/api-key", { apiKey });
      expect(response.status, JSON.stringify(apiKey)).toBe(400);
      expect((await response.json()).detail).toBe(INVALID_API_KEY);
    }
  });

  it("is stored encrypted, never returned or logged, and used instead of the shared key until removed", async () => {
    const user = await newUser();
    const apiKey = `md-own-key-${Date.now()}-abcdef`;
    const saved = await user.client.post("/api/moondream/api-key", { apiKey: `  ${apiKey}  ` });
    expect(saved.status).toBe(200);
    const savedText = await saved.text();
    expect(JSON.parse(savedText)).toEqual({ hasMoondreamApiKey: true });
    const profile = await user.client.get("/api/auth/me");
    const profileText = await profile.text();
    expect(JSON.parse(profileText)).toMatchObject({ hasMoondreamApiKey: true, sharedKeyUsageCount: 0 });
    for (const text of [savedText, profileText]) expect(text).not.toContain(apiKey);

    const [row] = await sql<Array<Record<string, unknown>>>`select * from users where id = ${user.id}`;
    const wholeRow = JSON.stringify(row);
    expect(wholeRow).not.toContain(apiKey);
    expect(wholeRow).not.toContain(Buffer.from(apiKey).toString("base64"));
    expect(row!.moondream_key_ciphertext).toMatch(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    const anywhere = await sql`select 1 from users where position(${apiKey} in users::text) > 0`;
    expect(anywhere).toHaveLength(0);

    const caption = await user.client.post("/api/moondream/caption", { imageData: frame });
    expect(caption.status).toBe(200);
    expect(stack.fake.calls.at(-1)!.key).toBe(apiKey);
    expect((await me(user)).sharedKeyUsageCount).toBe(0);
    expect(stack.app.logs.join("\n")).not.toContain(apiKey);

    const removed = await user.client.request("DELETE", "/api/moondream/api-key");
    expect(await removed.json()).toEqual({ hasMoondreamApiKey: false });
    expect((await user.client.post("/api/moondream/caption", { imageData: frame })).status).toBe(200);
    expect(stack.fake.calls.at(-1)!.key).toBe(SHARED_KEY);
    expect(await me(user)).toMatchObject({ hasMoondreamApiKey: false, sharedKeyUsageCount: 1 });
  });
});

describe("the shared key's free quota", () => {
  it("lets exactly 100 of 200 concurrent calls through and answers the rest with 402", async () => {
    const user = await newUser();
    const before = sharedCalls();
    const small = toDataUrl(await markerImage({ width: 64, height: 48, markers: row("red", 1) }));
    const responses = await Promise.all(Array.from({ length: 200 }, () => user.client.post("/api/moondream/point", { imageData: small, object: "person" })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(FREE_SHARED_CALLS);
    expect(statuses.filter((s) => s === 402)).toHaveLength(200 - FREE_SHARED_CALLS);
    const refused = responses.find((r) => r.status === 402)!;
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(await refused.json()).toMatchObject({ detail: SHARED_QUOTA_USED_UP, type: VISION_PROBLEM.freeCallsUsedUp });
    expect(sharedCalls() - before).toBe(FREE_SHARED_CALLS);
    expect((await me(user)).sharedKeyUsageCount).toBe(FREE_SHARED_CALLS);
  });

  it("gives the call back when the provider fails it", async () => {
    const user = await newUser();
    await sql`update users set shared_key_calls_used = 99 where id = ${user.id}`;
    stack.fake.failNext(503, 2); // the first attempt and its one retry
    const failed = await user.client.post("/api/moondream/detect", { imageData: frame, object: "red" });
    expect(failed.status).toBe(502);
    expect((await me(user)).sharedKeyUsageCount).toBe(99);
    expect((await user.client.post("/api/moondream/detect", { imageData: frame, object: "red" })).status).toBe(200);
    expect((await me(user)).sharedKeyUsageCount).toBe(100);
    const exhausted = await user.client.post("/api/moondream/detect", { imageData: frame, object: "red" });
    expect(exhausted.status).toBe(402);
  });

  it("without a shared key and without the user's own, says how to add one", async () => {
    const user = await signUpUser(); // the shared app has no MOONDREAM_API_KEY
    const response = await user.client.post("/api/moondream/caption", { imageData: frame });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ detail: NO_API_KEY, type: VISION_PROBLEM.noApiKey });
  });
});

describe("AI calls", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser();
    await user.client.post("/api/moondream/api-key", { apiKey: `calls-${user.id}` });
  });
  const post = async (path: string, body: unknown) => {
    const response = await user.client.post(path, body);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("captions a frame, and in story mode asks for a narrative", async () => {
    expect(await post("/api/moondream/caption", { imageData: frame })).toEqual({ status: 200, body: { caption: "A test frame with 2 red, 1 green and 1 blue markers." } });
    expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/caption", body: { length: "normal" } });
    const story = await post("/api/moondream/caption", { imageData: frame, storyMode: true });
    expect(story.status).toBe(200);
    expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/query", body: { question: expect.stringMatching(/narrative caption/) } });
  });

  it("streams a caption as Server-Sent Events when asked", async () => {
    const events = await openEvents(`${stack.url}/api/moondream/caption`, {
      method: "POST",
      headers: { cookie: user.client.cookieHeader, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ imageData: frame }),
    });
    expect(events.response.headers.get("content-type")).toContain("text/event-stream");
    const chunks: string[] = [];
    for (;;) {
      const event = await events.next();
      if (event.event === "chunk") chunks.push((JSON.parse(event.data) as { chunk: string }).chunk);
      else {
        expect(event.event).toBe("done");
        expect(JSON.parse(event.data)).toEqual({ caption: chunks.join("").trim() });
        break;
      }
    }
    expect(chunks.length).toBeGreaterThan(3);
    events.close();
  });

  it("points and detects with normalised coordinates, honouring maxObjects", async () => {
    const points = await post("/api/moondream/point", { imageData: frame, object: "red marker" });
    expect(points.status).toBe(200);
    expect(points.body.points).toEqual([
      { x: expect.closeTo(0.08, 1), y: expect.closeTo(0.15, 1) },
      { x: expect.closeTo(0.17, 1), y: expect.closeTo(0.15, 1) },
    ]);
    const detect = await post("/api/moondream/detect", { imageData: frame, object: "marker", maxObjects: 3, confidenceThreshold: 0.9 });
    expect(detect.status).toBe(200);
    const boxes = detect.body.boxes as Array<Record<string, number>>;
    expect(boxes).toHaveLength(3);
    for (const box of boxes) {
      expect(box.x_min).toBeGreaterThanOrEqual(0);
      expect(box.x_max).toBeLessThanOrEqual(1);
      expect(box.x_min).toBeLessThan(box.x_max!);
    }
    expect(stack.fake.calls.at(-1)!.body).toMatchObject({ object: "marker", settings: { max_objects: 3 } });
    const invalid = await post("/api/moondream/detect", { imageData: frame, object: " ", maxObjects: 99 });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors as object).sort()).toEqual(["maxObjects", "object"]);
  });

  it("reads a scoreboard into the live feed, and keeps the last good reading when a frame shows none", async () => {
    const read = await post("/api/moondream/scoreboard", { imageData: frame, sport: "soccer" });
    expect(read).toEqual({ status: 200, body: { scoreboard: { homeTeam: "Red", homeScore: 2, awayTeam: "Blue", awayScore: 1, period: "1", timeRemaining: null } } });
    const live = await (await fetch(`${stack.url}/api/scoreboard/live.json?userId=${user.id}`)).json();
    expect(live).toMatchObject({ sport: "soccer", homeTeam: "Red", homeScore: 2, periodLabel: "1st Half" });

    stack.fake.script(`calls-${user.id}`, ["Sorry, I can't make out a scoreboard in this image."]);
    const blank = await post("/api/moondream/scoreboard", { imageData: frame, sport: "soccer" });
    expect(blank.body.scoreboard).toEqual({ homeTeam: null, homeScore: null, awayTeam: null, awayScore: null, period: null, timeRemaining: null });
    expect(await (await fetch(`${stack.url}/api/scoreboard/live.json?userId=${user.id}`)).json()).toMatchObject({ homeTeam: "Red", version: live.version });
  });

  it("counts people by pointing or as a range, storing snapshots that update the session's stats", async () => {
    const session = (await post("/api/people-count/sessions", { cameraName: "Hall" })).body as { id: string };
    const pointed = await post("/api/people-count/count", { imageData: frame, sessionId: session.id });
    expect(pointed.status).toBe(200);
    expect(pointed.body).toMatchObject({ count: 4, countMin: null, countMax: null, session: { snapshotCount: 1, averageCount: 4 } });
    expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/point", body: { object: "person" } });

    const ranged = await post("/api/people-count/count", { imageData: frame, sessionId: session.id, useRange: true });
    expect(ranged.body).toMatchObject({ count: 5, countMin: 4, countMax: 6, session: { snapshotCount: 2, minCount: 4, maxCount: 6 } });
    // A range is asked with reasoning (the model counts before it answers); pointing has no such option.
    expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/query", body: { reasoning: true } });
    const snapshots = (await (await user.client.get(`/api/people-count/sessions/${session.id}/snapshots`)).json()) as Array<{ aiCount: number; thumbnailUrl: string }>;
    expect(snapshots.map((s) => s.aiCount)).toEqual([4, 5]);
    expect((await user.client.get(snapshots[0]!.thumbnailUrl)).status).toBe(200);

    stack.fake.script(`calls-${user.id}`, ["I really can't tell."]);
    const unreadable = await post("/api/people-count/count", { imageData: frame, sessionId: session.id, useRange: true });
    expect(unreadable.status).toBe(502);
    expect(unreadable.body.detail).toMatch(/no count/);

    await user.client.post(`/api/people-count/sessions/${session.id}/finish`);
    const before = stack.fake.calls.length;
    expect((await post("/api/people-count/count", { imageData: frame, sessionId: session.id })).status).toBe(409);
    expect((await post("/api/people-count/count", { imageData: frame, sessionId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    expect(stack.fake.calls.length).toBe(before); // no provider call spent on a frame that could not be stored
    expect(await post("/api/people-count/count", { imageData: frame })).toMatchObject({ status: 200, body: { count: 4, snapshot: null, session: null } });
  });

  it("refuses to count with Moondream into a local session (one source per session), spending no call", async () => {
    const session = (await post("/api/people-count/sessions", { cameraName: "Hall", source: "local" })).body as { id: string };
    const before = stack.fake.calls.length;
    const refused = await post("/api/people-count/count", { imageData: frame, sessionId: session.id });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/counts on the device/);
    expect(stack.fake.calls.length).toBe(before);
    expect(((await (await user.client.get(`/api/people-count/sessions/${session.id}`)).json()) as { snapshotCount: number }).snapshotCount).toBe(0);
  });

  it("advises on the shot from raw base64", async () => {
    const imageBase64 = frame.slice(frame.indexOf(",") + 1);
    const advice = await post("/api/camera-assistant/analyze", { imageBase64, cameraType: "PTZ", targetLook: "Cinematic", intent: "interview" });
    expect(advice.status).toBe(200);
    expect(advice.body.recommendations).toEqual({
      exposure: { tip: "Exposure looks balanced.", detail: "Highlights hold detail; the frame has 4 bright markers." },
      whiteBalance: "Slightly cool; warm it a little.",
      focus: { tip: "Focus is sharp.", detail: "Edges of the markers are crisp." },
      lighting: { tip: "Add a fill light.", detail: "Shadows on the left are deep." },
      overall: "Close to the target look.",
    });
    expect(stack.fake.calls.at(-1)!.body.question).toMatch(/Target look: Cinematic\..*interview/);
    const missing = await post("/api/camera-assistant/analyze", { imageBase64, targetLook: "" });
    expect(missing.status).toBe(400);
    const notImage = await post("/api/camera-assistant/analyze", { imageBase64: Buffer.from("hello world").toString("base64"), targetLook: "Natural" });
    expect(notImage.status).toBe(422);
    expect(notImage.body.errors).toHaveProperty("imageBase64");
  });

  it("refuses frames that are not JPEG/PNG or over 10 MB, before any provider call", async () => {
    const before = stack.fake.calls.length;
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#888" } })
      .webp()
      .toBuffer();
    const cases: Array<[string, number]> = [
      [`data:image/webp;base64,${webp.toString("base64")}`, 422],
      [`data:image/jpeg;base64,${Buffer.from("not a jpeg at all").toString("base64")}`, 422],
      ["data:text/plain;base64,aGVsbG8=", 422],
      [`data:image/png;base64,${Buffer.alloc(10 * 1024 * 1024 + 10).toString("base64")}`, 413],
    ];
    for (const [imageData, status] of cases) {
      const response = await post("/api/moondream/caption", { imageData });
      expect(response.status, imageData.slice(0, 30)).toBe(status);
      expect(response.body.detail).toBeTruthy();
    }
    expect((await post("/api/moondream/caption", { imageData: `data:image/png;base64,${"A".repeat(15 * 1024 * 1024)}` })).status).toBe(413);
    expect(stack.fake.calls.length).toBe(before);
  });

  it("reads a large frame from the body's bytes: sent on byte for byte, or refused exactly as a small one", async () => {
    const big = toDataUrl(await markerImage({ width: 1280, height: 720, noise: 20, markers: row("red", 2) }));
    expect(big.length).toBeGreaterThan(64 * 1024); // the body reader's fast path (server/http/json-body.ts)
    // The fake finds the markers in the image it decodes, and the body it got is exactly the JSON of the frame as sent.
    expect((await post("/api/moondream/point", { imageData: big, object: "red" })).body.points).toHaveLength(2);
    expect(stack.fake.calls.at(-1)).toMatchObject({ body: { image_url: `${big.slice(0, 40)}…` }, bytes: JSON.stringify({ image_url: big, object: "red" }).length });
    const advice = await post("/api/camera-assistant/analyze", { imageBase64: big, targetLook: "Natural" });
    expect(advice.status).toBe(200);
    expect(stack.fake.calls.at(-1)!.bytes).toBeGreaterThan(big.length);

    const before = stack.fake.calls.length;
    const noise = (size: number) => Buffer.alloc(size, 7).toString("base64");
    const refusals: Array<[string, (size: number) => string]> = [
      ["not an image", (size) => `data:image/jpeg;base64,${noise(size)}`],
      ["not an image type", (size) => `data:text/plain;base64,${noise(size)}`],
      ["malformed base64", (size) => `data:image/jpeg;base64,${noise(size).slice(0, 400)}*${noise(size).slice(401)}`],
      ["an upper-case header", (size) => `DATA:IMAGE/JPEG;BASE64,${noise(size)}`],
    ];
    for (const [name, imageData] of refusals) {
      const small = await post("/api/moondream/point", { imageData: imageData(3_000), object: "x" });
      const large = await post("/api/moondream/point", { imageData: imageData(60_000), object: "x" });
      expect(small.status, name).toBe(422);
      expect(large, name).toEqual(small);
    }
    expect(stack.fake.calls.length).toBe(before);
  });

  it("downscales frames over 2.2 megapixels before sending, and sends PNG and small JPEG frames as they are", async () => {
    const big = await markerImage({ width: 3840, height: 2160, markers: row("red", 2) });
    expect((await post("/api/moondream/detect", { imageData: toDataUrl(big), object: "red" })).body.boxes).toHaveLength(2);
    const sent = stack.fake.calls.at(-1)!.bytes;
    expect(sent).toBeLessThan(toDataUrl(big).length * 0.5);

    const png = await markerImage({ format: "png", markers: row("blue", 1) });
    expect((await post("/api/moondream/point", { imageData: toDataUrl(png, "image/png"), object: "blue" })).body.points).toHaveLength(1);
    expect(stack.fake.calls.at(-1)!.body.image_url).toMatch(/^data:image\/png;base64,/);
    expect(stack.fake.calls.at(-1)!.bytes).toBeLessThan(toDataUrl(png, "image/png").length + 200);
  });

  it("requires sign-in for every AI call", async () => {
    for (const path of [
      "/api/moondream/caption",
      "/api/moondream/point",
      "/api/moondream/detect",
      "/api/moondream/scoreboard",
      "/api/moondream/api-key",
      "/api/people-count/count",
      "/api/camera-assistant/analyze",
    ]) {
      const response = await fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ imageData: frame }) });
      expect(response.status, path).toBe(401);
    }
  });
});
