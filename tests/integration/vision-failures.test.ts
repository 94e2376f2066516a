// Every way the provider can fail yields its status and a message a person can act on, the free quota is
// untouched, and the server stays healthy. Failure modes are chosen by the user's key (see the fake).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITED, VISION_PROBLEM } from "#app/schemas/vision";
import { signUpUser, type TestUser } from "../support/client";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

let stack: VisionStack;
let station: VisionStack;
let frame: string;

beforeAll(async () => {
  stack = await startVisionStack({ MOONDREAM_TIMEOUT_MS: "1000" });
  // A local Moondream Station: no key at all, errors as HTTP 200 {"error"}.
  station = await startVisionStack({ MOONDREAM_ENDPOINT: stack.fake.stationUrl, MOONDREAM_KEYLESS: "true", MOONDREAM_API_KEY: "" }, stack.fake);
  frame = await markerFrame();
});
afterAll(async () => {
  await station?.stop();
  await stack?.stop();
});

async function userWithKey(apiKey: string, baseUrl = stack.url): Promise<TestUser> {
  const user = await signUpUser({ baseUrl });
  expect((await user.client.post("/api/moondream/api-key", { apiKey: `${apiKey}-${user.id.slice(0, 8)}` })).status).toBe(200);
  return user;
}

async function expectHealthy(baseUrl: string) {
  expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
  const user = await userWithKey("healthy", baseUrl);
  expect((await user.client.post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBe(200);
}

describe("provider failures", () => {
  it.each([
    ["invalid", "/api/moondream/caption", 400, /^Moondream rejected your API key\. Check it in AI settings/, VISION_PROBLEM.keyRejected],
    ["fail-429", "/api/moondream/detect", 429, new RegExp(`^${RATE_LIMITED}$`), VISION_PROBLEM.rateLimited],
    ["fail-500", "/api/moondream/point", 502, /^Moondream is unavailable right now \(HTTP 500\)/, "about:blank"],
    ["fail-503", "/api/moondream/scoreboard", 502, /^Moondream is unavailable right now \(HTTP 503\)/, "about:blank"],
    ["hang", "/api/moondream/caption", 504, /^Moondream did not answer within 1 s/, "about:blank"],
    ["fail-413", "/api/moondream/caption", 413, /too large for Moondream/, "about:blank"],
    ["fail-400", "/api/camera-assistant/analyze", 422, /^Moondream could not use this request: Failure mode 400/, "about:blank"],
    ["error-body", "/api/people-count/count", 502, /^Moondream reported an error: Model failed to load/, "about:blank"],
  ])("key %s on %s → %i", async (mode, path, status, detail, type) => {
    const user = await userWithKey(mode);
    const request = path.includes("analyze") ? { imageBase64: frame.split(",")[1], targetLook: "Natural" } : { imageData: frame, object: "red", sport: "football" };
    const response = await user.client.post(path, request);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const body = (await response.json()) as { detail: string; type: string };
    expect(body.detail).toMatch(detail);
    expect(body.type).toBe(type); // the studio tells people about the typed ones once
    if (status === 429) expect(response.headers.get("retry-after")).toBe("1");
    await expectHealthy(stack.url);
  });

  it("names the shared key when the provider rejects it, and gives the call back", async () => {
    const user = await signUpUser({ baseUrl: stack.url });
    stack.fake.failNext(401);
    const response = await user.client.post("/api/moondream/caption", { imageData: frame });
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toMatch(/rejected the studio's shared API key/);
    expect((await (await user.client.get("/api/auth/me")).json()).sharedKeyUsageCount).toBe(0);
  });

  it("answers a client that went away without harm", async () => {
    const user = await userWithKey("hang");
    const controller = new AbortController();
    const pending = fetch(`${stack.url}/api/moondream/caption`, {
      method: "POST",
      headers: { cookie: user.client.cookieHeader, "content-type": "application/json" },
      body: JSON.stringify({ imageData: frame }),
      signal: controller.signal,
    });
    const calls = stack.fake.calls.length;
    await expect.poll(() => stack.fake.calls.length).toBeGreaterThan(calls);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expectHealthy(stack.url);
  });
});

describe("a local Moondream Station (MOONDREAM_KEYLESS)", () => {
  it("calls without any key and uses no quota", async () => {
    const user = await signUpUser({ baseUrl: station.url });
    const response = await user.client.post("/api/moondream/detect", { imageData: frame, object: "blue", maxObjects: 5 });
    expect(response.status).toBe(200);
    expect((await response.json()).boxes).toHaveLength(1);
    expect(stack.fake.calls.at(-1)!.key).toBeUndefined();
    expect((await (await user.client.get("/api/auth/me")).json()).sharedKeyUsageCount).toBe(0);
  });

  it("turns its HTTP 200 error body into a 502 with its message", async () => {
    const user = await signUpUser({ baseUrl: station.url });
    stack.fake.failNext(500);
    const response = await user.client.post("/api/moondream/caption", { imageData: frame });
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toBe("Moondream reported an error: Injected failure 500");
    await expectHealthy(station.url);
  });
});
