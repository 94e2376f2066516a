// The client against the fake Moondream's real wire format: answers, streaming, and every failure mode.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markerImage, row, toDataUrl } from "../../tests/fakes/moondream/images";
import { FAKE_OUTLINE, REASONING_MS, startFakeMoondream, type FakeMoondream } from "../../tests/fakes/moondream/server";
import { freePort } from "../../tests/support/stack";
import { MoondreamError } from "./errors";
import { httpFetch } from "./http-fetch";
import { MoondreamProvider, type MoondreamOptions } from "./providers/moondream";

let fake: FakeMoondream;
let image: string;

beforeAll(async () => {
  fake = await startFakeMoondream();
  image = toDataUrl(await markerImage({ markers: [...row("red", 2, 0.1), ...row("blue", 1, 0.6)] }));
});
afterAll(() => fake.close());

// The app sends through httpFetch (node:http); the client is written against fetch. Both must behave alike.
describe.each([
  ["global fetch", globalThis.fetch],
  ["httpFetch", httpFetch],
])("MoondreamProvider over %s", (name, transport) => {
  /** Keys choose the fake's behaviour; the suffix keeps each transport's calls (and flaky counters) apart. */
  const k = (key: string) => `${key}-${name.replace(/\s/g, "")}`;
  const callsOf = (key: string) => fake.calls.filter((c) => c.key === k(key)).length;

  function client(overrides: Partial<MoondreamOptions> = {}) {
    return new MoondreamProvider({
      fetch: transport,
      endpoint: fake.url,
      timeoutMs: 5_000,
      maxRetries: 2,
      backoff: { baseMs: 5, capMs: 20 },
      ...overrides,
    });
  }

  async function failure(promise: Promise<unknown>): Promise<MoondreamError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MoondreamError);
    return error as MoondreamError;
  }

  it("detects and points, sending the key and settings.max_objects", async () => {
    const boxes = await client().detect({ imageUrl: image, object: "red marker", maxObjects: 1 }, { apiKey: k("key-detect") });
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.x_min).toBeCloseTo(0.05, 1);
    const call = fake.calls.find((c) => c.key === k("key-detect"))!;
    expect(call.body).toMatchObject({ object: "red marker", settings: { max_objects: 1 } });
    const points = await client().point({ imageUrl: image, object: "marker" }, { apiKey: k("key-point") });
    expect(points).toHaveLength(3);
  });

  it("captions, and streams captions chunk by chunk (cloud and Moondream Station formats)", async () => {
    expect(await client().caption({ imageUrl: image }, { apiKey: k("k") })).toBe("A test frame with 2 red, 0 green and 1 blue markers.");
    const chunks: string[] = [];
    const text = await client().caption({ imageUrl: image }, { apiKey: k("k") }, (c) => chunks.push(c));
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(text);
    const stationChunks: string[] = [];
    const station = client({ endpoint: fake.stationUrl });
    expect(await station.query({ imageUrl: image, question: "What is this?" }, {}, (c) => stationChunks.push(c))).toBe("I see 3 markers.");
    expect(stationChunks).toEqual(["I ", "see ", "3 ", "markers."]);
  });

  it("reads streamed pieces sent as {text} as well as {chunk}", async () => {
    const chunks: string[] = [];
    const text = await client().caption({ imageUrl: image }, { apiKey: k("text-stream") }, (c) => chunks.push(c));
    expect(text).toBe("A test frame with 2 red, 0 green and 1 blue markers.");
    expect(chunks.length).toBeGreaterThan(5);
    const stationChunks: string[] = [];
    expect(await client({ endpoint: fake.stationUrl }).query({ imageUrl: image, question: "What is this?" }, { apiKey: "text-stream" }, (c) => stationChunks.push(c))).toBe(
      "I see 3 markers.",
    );
    expect(stationChunks).toEqual(["I ", "see ", "3 ", "markers."]);
  });

  it("asks with reasoning only when told to, and reads the answer beside the reasoning", async () => {
    expect(await client().query({ imageUrl: image, question: "How many people?", reasoning: true }, { apiKey: k("key-reason") })).toBe("Roughly 3 to 5 people.");
    expect(await client().query({ imageUrl: image, question: "How many people?" }, { apiKey: k("key-reason") })).toBe("Roughly 3 to 5 people.");
    const [withReasoning, without] = fake.calls.filter((c) => c.key === k("key-reason"));
    expect(withReasoning!.body).toMatchObject({ reasoning: true });
    expect(without!.body).not.toHaveProperty("reasoning");
    expect(REASONING_MS).toBeGreaterThan(0);
  });

  it("segments: the outline and its bbox, seeded with spatial_refs, as JSON or streamed (coarse path first)", async () => {
    const answer = await client().segment({ imageUrl: image, object: "red marker" }, { apiKey: k("key-seg") });
    expect(answer.path).toBe(FAKE_OUTLINE);
    expect(answer.bbox.x_min).toBeCloseTo(0.05, 1);
    // A point on the second red marker picks it.
    const seeded = await client().segment({ imageUrl: image, object: "red marker", spatialRefs: [[0.17, 0.15]] }, { apiKey: k("key-seg") });
    expect(seeded.bbox.x_min).toBeCloseTo(0.14, 1);
    expect(fake.calls.filter((c) => c.key === k("key-seg"))[1]!.body).toMatchObject({ object: "red marker", spatial_refs: [[0.17, 0.15]], stream: false });
    const coarse: string[] = [];
    const streamed = await client().segment({ imageUrl: image, object: "red marker" }, { apiKey: k("key-seg") }, (p) => coarse.push(p));
    expect(streamed).toEqual(answer);
    expect(coarse.at(0)).toBe("M 0.5 0 ");
    expect(coarse.at(-1)).toBe(FAKE_OUTLINE);
    expect(client().segmentSupport()).toBe("unknown");
  });

  it("names a server without segmentation (an older Moondream Station) and asks it no more for a while", async () => {
    const legacy = client({ endpoint: fake.legacyStationUrl });
    const before = fake.calls.length;
    expect((await failure(legacy.segment({ imageUrl: image, object: "red" }, {}))).kind).toBe("unsupported");
    expect(legacy.segmentSupport()).toBe("unsupported");
    expect((await failure(legacy.segment({ imageUrl: image, object: "red" }, {}))).kind).toBe("unsupported");
    expect(fake.calls.length - before).toBe(1);
    // Its other skills still work.
    expect(await legacy.point({ imageUrl: image, object: "red" }, {})).toHaveLength(2);
    const station = client({ endpoint: fake.stationUrl });
    await station.segment({ imageUrl: image, object: "blue" }, {});
    expect(station.segmentSupport()).toBe("available");
  });

  it("refuses a segment answer without the documented fields, and takes another error for what it is", async () => {
    expect((await failure(client().segment({ imageUrl: image, object: "red" }, { apiKey: k("wrong-shape") }))).kind).toBe("bad-response");
    const seg = client();
    const error = await failure(seg.segment({ imageUrl: image, object: "red" }, { apiKey: k("error-body") }));
    expect(error.kind).toBe("provider-error");
    expect(seg.segmentSupport()).toBe("unknown");
  });

  it("names a rejected key as unauthorized, without retrying", async () => {
    const error = await failure(client().caption({ imageUrl: image }, { apiKey: k("invalid-key-1") }));
    expect(error.kind).toBe("unauthorized");
    expect(error.details).toMatchObject({ status: 401, providerMessage: "Invalid API key" });
    expect(callsOf("invalid-key-1")).toBe(1);
  });

  it("reports 413 and other 4xx without retrying", async () => {
    expect((await failure(client().caption({ imageUrl: image }, { apiKey: k("fail-413") }))).kind).toBe("too-large");
    expect(callsOf("fail-413")).toBe(1);
    expect((await failure(client().caption({ imageUrl: image }, { apiKey: k("fail-400") }))).kind).toBe("bad-request");
  });

  it("waits out Retry-After on a 429 and then succeeds", async () => {
    const started = performance.now();
    const answer = await client().query({ imageUrl: image, question: "What is this?" }, { apiKey: k("flaky-429-1") });
    expect(answer).toBe("I see 3 markers.");
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(callsOf("flaky-429-1")).toBe(2);
  });

  it("gives up on 429 after its retries, passing on Retry-After", async () => {
    const error = await failure(client({ maxRetries: 1 }).caption({ imageUrl: image }, { apiKey: k("fail-429") }));
    expect(error.kind).toBe("rate-limited");
    expect(error.details.retryAfterMs).toBe(1_000);
    expect(callsOf("fail-429")).toBe(2);
  });

  it("retries 5xx with backoff, then reports the provider unavailable", async () => {
    const error = await failure(client().detect({ imageUrl: image, object: "x", maxObjects: 5 }, { apiKey: k("fail-503") }));
    expect(error.kind).toBe("unavailable");
    expect(error.details.status).toBe(503);
    expect(callsOf("fail-503")).toBe(3);
    expect(await client().detect({ imageUrl: image, object: "blue", maxObjects: 5 }, { apiKey: k("flaky-502-2") })).toHaveLength(1);
  });

  it("times out a hung call without retrying it", async () => {
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 300 }).caption({ imageUrl: image }, { apiKey: k("hang") }));
    expect(error.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(callsOf("hang")).toBe(1);
  });

  it("treats HTTP 200 with an error body as an error (Moondream Station)", async () => {
    const error = await failure(client().caption({ imageUrl: image }, { apiKey: k("error-body") }));
    expect(error.kind).toBe("provider-error");
    expect(error.details.providerMessage).toBe("Model failed to load");
    fake.failNext(500);
    const station = await failure(client({ endpoint: fake.stationUrl }).point({ imageUrl: image, object: "x" }, {}));
    expect(station.kind).toBe("provider-error");
    expect(station.details.providerMessage).toBe("Injected failure 500");
  });

  it("reports a provider it cannot reach", async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const error = await failure(client({ endpoint: closed, maxRetries: 1 }).caption({ imageUrl: image }, { apiKey: k("k") }));
    expect(error.kind).toBe("unavailable");
    expect(error.message).toMatch(/Could not reach Moondream/);
  });

  it("stops when the caller goes away", async () => {
    const controller = new AbortController();
    const call = client().caption({ imageUrl: image }, { apiKey: k("hang"), signal: controller.signal });
    setTimeout(() => controller.abort(new Error("caller left")), 50);
    await expect(call).rejects.toThrow("caller left");
  });
});
