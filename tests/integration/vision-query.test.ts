// "Describe with Moondream": POST /api/moondream/query against the fake Moondream (own key, shared key's free calls,
// problems), and the photo's description it ends up in.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { QUERY_ANSWER_MAX_LENGTH, VISION_PROBLEM } from "#app/schemas/vision";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
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

async function withKey(prefix: string): Promise<TestUser & { key: string }> {
  const user = await signUpUser({ baseUrl: stack.url });
  const key = `${prefix}-${user.id.slice(0, 8)}`;
  expect((await user.client.post("/api/moondream/api-key", { apiKey: key })).status).toBe(200);
  return { ...user, key };
}
const usage = async (user: TestUser) => ((await (await user.client.get("/api/auth/me")).json()) as { sharedKeyUsageCount: number }).sharedKeyUsageCount;

describe("POST /api/moondream/query", () => {
  it("asks Moondream the question about the frame with the user's key and answers its text, trimmed", async () => {
    const user = await withKey("describe");
    stack.fake.script(user.key, ["  A person in a red coat walking left.  "]);
    const response = await user.client.post("/api/moondream/query", { imageData: frame, question: "Describe the person in the box." });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answer: "A person in a red coat walking left." });
    const call = stack.fake.calls.filter((c) => c.key === user.key).at(-1)!;
    expect(call.path).toBe("/query");
    expect(call.body).toMatchObject({ question: "Describe the person in the box." });
    expect(String(call.body.image_url)).toMatch(/^data:image\/jpeg;base64,/);
  });

  it("caps a long answer so it fits a photo's and an event's description", async () => {
    const user = await withKey("describe-long");
    stack.fake.script(user.key, ["word ".repeat(400)]);
    const { answer } = (await (await user.client.post("/api/moondream/query", { imageData: frame, question: "Describe." })).json()) as { answer: string };
    expect(answer).toHaveLength(QUERY_ANSWER_MAX_LENGTH);
    expect(answer.endsWith("…")).toBe(true);
  });

  it("spends the shared key's free calls like the other AI operations, and says when they are used up", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    await sql`update users set shared_key_calls_used = 99 where id = ${user.id}`;
    const before = stack.fake.calls.filter((c) => c.key === SHARED_KEY).length;
    expect((await user.client.post("/api/moondream/query", { imageData: frame, question: "Describe." })).status).toBe(200);
    expect(await usage(user)).toBe(100);
    const refused = await user.client.post("/api/moondream/query", { imageData: frame, question: "Describe." });
    expect(refused.status).toBe(402);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((await refused.json()).type).toBe(VISION_PROBLEM.freeCallsUsedUp);
    expect(stack.fake.calls.filter((c) => c.key === SHARED_KEY).length - before).toBe(1);
  });

  it("answers a rejected key and bad input with problem JSON, spending nothing on bad input", async () => {
    const rejected = await withKey("invalid");
    const response = await rejected.client.post("/api/moondream/query", { imageData: frame, question: "Describe." });
    expect(response.status).toBe(400);
    expect((await response.json()).type).toBe(VISION_PROBLEM.keyRejected);

    const user = await withKey("describe-bad");
    for (const [body, field] of [
      [{ imageData: frame }, "question"],
      [{ imageData: frame, question: "   " }, "question"],
      [{ imageData: frame, question: "x".repeat(501) }, "question"],
      [{ imageData: "not a data url", question: "Describe." }, "imageData"],
      [{ imageData: frame, question: "Describe.", priority: "urgent" }, "priority"],
    ] as const) {
      const bad = await user.client.post("/api/moondream/query", body);
      expect(bad.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys((await bad.json()).errors)).toContain(field);
    }
    expect(stack.fake.calls.filter((c) => c.key === user.key)).toHaveLength(0);
  });
});

describe("a photo's description", () => {
  it("is stored with the photo and returned by every read; empty means none; at most 1000 characters", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    const imageData = await jpegDataUrl(320, 240);
    const created = await user.client.post("/api/photos", { imageData, autoCapture: true, description: "  A person in a red coat.  " });
    expect(created.status).toBe(201);
    const photo = (await created.json()) as { id: string; description: string | null };
    expect(photo.description).toBe("A person in a red coat.");
    expect((await (await user.client.get(`/api/photos/${photo.id}`)).json()).description).toBe("A person in a red coat.");
    const list = (await (await user.client.get("/api/photos")).json()) as Array<{ id: string; description: string | null }>;
    expect(list.find((p) => p.id === photo.id)?.description).toBe("A person in a red coat.");

    const plain = (await (await user.client.post("/api/photos", { imageData, description: "" })).json()) as { description: string | null };
    expect(plain.description).toBeNull();
    const tooLong = await user.client.post("/api/photos", { imageData, description: "x".repeat(1001) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).errors.description).toEqual(["description must be at most 1000 characters"]);
  });
});
