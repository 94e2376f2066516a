// Server-side webhooks end to end: a loopback receiver verifying Standard Webhooks signatures, retries
// that deliver exactly once per webhook-id, a restart mid-retry, switch-off after 410 or a failure run,
// the test button's answers, and the events of photos, stories and counting sessions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES, webhookEvents, type WebhookEventType } from "#app/schemas/events";
import { type Client, signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, until, type Receiver } from "../support/webhook-receiver";

let app: TestApp;
let env: Record<string, string>;
let receiver: Receiver;

beforeAll(async () => {
  env = {
    DATABASE_URL: await createOwnDatabase(),
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: tempDir("webhooks"),
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8,::1",
    WEBHOOK_RETRY_BASE_MS: "300",
    WEBHOOK_MAX_ATTEMPTS: "6",
    WEBHOOK_DISABLE_AFTER_FAILURES: "4",
    WEBHOOK_DISABLE_AFTER_MINUTES: "0",
    WEBHOOK_CONCURRENCY: "4",
  };
  app = await startApp(env);
  receiver = await startReceiver();
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

async function userWithWebhook(eventType: "simple" | "detailed" = "simple", url = receiver.url): Promise<TestUser & { secret: string }> {
  const user = await signUpUser({ baseUrl: app.url });
  const saved = await user.client.post("/api/webhooks/settings", { webhookUrl: url, webhookEnabled: true, webhookEventType: eventType });
  expect(saved.status).toBe(200);
  const { secret } = (await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string };
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.secret = secret;
  return { ...user, secret };
}

async function autoCapture(client: Client, object = "person", boxes = 2) {
  const response = await client.post("/api/photos", {
    imageData: await jpegDataUrl(64, 48),
    autoCapture: true,
    detectionQuery: object,
    detectionBoxes: Array.from({ length: boxes }, (_, i) => ({ x_min: 0.1 * i, y_min: 0.1, x_max: 0.1 * i + 0.05, y_max: 0.3 })),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; createdAt: string };
}

const deliveries = (client: Client) =>
  client
    .get("/api/webhooks/deliveries")
    .then(
      (r) => r.json() as Promise<{ deliveries: { id: string; event: string; status: string; attempts: number; lastError: string | null }[]; disabled: { reason: string } | null }>,
    );

describe("webhook delivery", () => {
  it("sends a signed 'simple' detection_made event for an auto-captured photo with detections, and nothing for other photos", async () => {
    receiver.respond = () => ({ status: 204 });
    const { client } = await userWithWebhook("simple");
    const before = receiver.requests.length;
    await client.post("/api/photos", { imageData: await jpegDataUrl(), autoCapture: false, detectionQuery: "cat", detectionBoxes: [{ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }] });
    await client.post("/api/photos", { imageData: await jpegDataUrl(), autoCapture: true, detectionQuery: "cat", detectionBoxes: [] });
    const photo = await autoCapture(client, "person", 2);
    await receiver.waitFor((r) => r.requests.length > before);
    const received = receiver.requests.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toBe(true);
    expect(received[0]!.id).toMatch(/^msg_/);
    expect(received[0]!.payload).toEqual({
      type: "detection_made",
      event: "detection_made",
      timestamp: expect.any(String),
      data: { object: "person", detected: true, timestamp: photo.createdAt, boxCount: 2 },
    });
    const log = await until(
      () => deliveries(client),
      (d) => d.deliveries[0]?.status === "delivered",
    );
    expect(log.deliveries[0]).toMatchObject({ id: received[0]!.id, event: "detection_made", status: "delivered", attempts: 1 });
  });

  it("sends 'detailed' detection_details with the photo id and a link that opens without a session", async () => {
    receiver.respond = () => ({ status: 200 });
    const { client } = await userWithWebhook("detailed");
    const before = receiver.requests.length;
    const photo = await autoCapture(client, "dog", 1);
    await receiver.waitFor((r) => r.requests.length > before);
    const { payload, verified } = receiver.requests[before]!;
    expect(verified).toBe(true);
    expect(payload.type).toBe("detection_details");
    expect(payload.data).toMatchObject({ object: "dog", detected: true, boxCount: 1, cameraId: null, cameraName: null, autoCapture: true, photoId: photo.id });
    expect(payload.data.boxes).toHaveLength(1);
    const link = new URL(String(payload.data.photoUrl));
    const anonymous = await fetch(`${app.url}${link.pathname}${link.search}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("content-type")).toMatch(/^image\//);
    link.searchParams.set("signature", "forged");
    expect((await fetch(`${app.url}${link.pathname}${link.search}`)).status).toBe(401);
  });

  it("delivers exactly once per webhook-id when the receiver fails twice first, honouring Retry-After", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = ({ attempt }) => (attempt <= 2 ? { status: attempt === 1 ? 503 : 429, headers: { "retry-after": "1" } } : { status: 200 });
    const before = receiver.requests.length;
    await autoCapture(client);
    await receiver.waitFor((r) => r.requests.slice(before).some((x) => x.status === 200));
    const log = await until(
      () => deliveries(client),
      (d) => d.deliveries[0]?.status === "delivered",
    );
    const id = log.deliveries[0]!.id;
    const forId = receiver.requests.filter((r) => r.id === id);
    expect(forId.map((r) => r.status)).toEqual([503, 429, 200]);
    expect(forId.every((r) => r.verified)).toBe(true);
    // Retry-After: 1 was honoured: each retry came at least a second after the previous attempt.
    expect(forId[1]!.timestamp - forId[0]!.timestamp).toBeGreaterThanOrEqual(1);
    expect(log.deliveries[0]).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("treats a redirect as a failure and does not follow it", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = ({ attempt }) => (attempt === 1 ? { status: 302, headers: { location: "http://127.0.0.1:9/" } } : { status: 200 });
    await autoCapture(client);
    const log = await until(
      () => deliveries(client),
      (d) => d.deliveries[0]?.status === "delivered",
    );
    expect(log.deliveries[0]!.attempts).toBe(2);
  });

  it("answers the test button with the receiver's status", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = () => ({ status: 200 });
    const ok = await (await client.post("/api/webhooks/test")).json();
    expect(ok).toMatchObject({ success: true, receiverStatus: 200, message: "Test successful" });
    expect(receiver.requests.at(-1)!.payload.type).toBe("webhook_test");
    expect(receiver.requests.at(-1)!.verified).toBe(true);
    receiver.respond = () => ({ status: 500 });
    expect(await (await client.post("/api/webhooks/test")).json()).toMatchObject({ success: false, receiverStatus: 500, message: "HTTP 500" });
    const nobody = await userWithWebhook("simple", "http://127.0.0.1:9/nothing-listens");
    expect(await (await nobody.client.post("/api/webhooks/test")).json()).toMatchObject({ success: false, receiverStatus: null, message: "Connection refused" });
    const none = await signUpUser({ baseUrl: app.url });
    const missing = await none.client.post("/api/webhooks/test");
    expect(missing.status).toBe(400);
    expect((await missing.json()).detail).toBe("No webhook URL");
  });

  it("regenerates the secret, and deliveries are signed with the new one", async () => {
    const { client, secret } = await userWithWebhook();
    const fresh = (await (await client.post("/api/webhooks/secret")).json()) as { secret: string };
    expect(fresh.secret).not.toBe(secret);
    receiver.secret = fresh.secret;
    receiver.respond = () => ({ status: 200 });
    expect((await (await client.post("/api/webhooks/test")).json()).success).toBe(true);
  });

  it("switches the webhook off after a 410 Gone and says why", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = () => ({ status: 410 });
    await autoCapture(client);
    const log = await until(
      () => deliveries(client),
      (d) => d.disabled !== null,
    );
    expect(log.disabled!.reason).toContain("410");
    expect(log.deliveries[0]).toMatchObject({ status: "failed", attempts: 1 });
    expect((await (await client.get("/api/webhooks/settings")).json()).webhookEnabled).toBe(false);
    // The delivery given up on is on the timeline, next to the auto-capture it told about.
    const timeline = (await (await client.get("/api/timeline?type=webhook.failed")).json()) as { events: { targetName: string; description: string }[] };
    expect(timeline.events).toHaveLength(1);
    expect(timeline.events[0]!.targetName).toBe("detection_made");
    expect(timeline.events[0]!.description).toMatch(/failed after 1 attempts: .*410/);
    // Turning it back on clears the switch-off.
    await client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" });
    expect((await deliveries(client)).disabled).toBeNull();
  });

  it("switches the webhook off after a long run of failures and cancels what was still queued", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = () => ({ status: 500 });
    await autoCapture(client);
    await autoCapture(client);
    const log = await until(
      () => deliveries(client),
      (d) => d.disabled !== null && d.deliveries.every((x) => x.status === "failed" || x.status === "cancelled"),
      60_000,
    );
    expect(log.disabled!.reason).toMatch(/^4 deliveries in a row failed since .* \(last: HTTP 500\)$/);
    expect((await (await client.get("/api/webhooks/settings")).json()).webhookEnabled).toBe(false);
  });

  it("sends story_finished and people_count_session_finished once", async () => {
    receiver.respond = () => ({ status: 200 });
    const { client } = await userWithWebhook();
    const before = receiver.requests.length;
    const story = await (await client.post("/api/stories", { title: "Morning walk" })).json();
    await client.post(`/api/stories/${story.id}/finish`);
    await client.post(`/api/stories/${story.id}/finish`);
    const session = await (await client.post("/api/people-count/sessions", { cameraName: "Lobby" })).json();
    await client.post(`/api/people-count/sessions/${session.id}/finish`);
    await receiver.waitFor((r) => r.requests.length >= before + 2);
    const types = receiver.requests
      .slice(before)
      .map((r) => r.payload.type)
      .sort();
    expect(types).toEqual(["people_count_session_finished", "story_finished"]);
    const sessionEvent = receiver.requests.slice(before).find((r) => r.payload.type === "people_count_session_finished")!;
    expect(sessionEvent.payload.data).toMatchObject({ sessionId: session.id, cameraName: "Lobby", snapshotCount: 0, source: "moondream" });
    // A second finish sent nothing more.
    const log = await deliveries(client);
    expect(log.deliveries.filter((d) => d.event === "story_finished")).toHaveLength(1);
  });

  it("sends line.crossed, zone.entered, zone.exited and zone.loitering for the studio's local-vision events, signed", async () => {
    receiver.respond = () => ({ status: 200 });
    const { client } = await userWithWebhook();
    const origin = { origin: client.baseUrl };
    const camera = await (await client.post("/api/cameras", { name: "Entrance", thumbnail: await jpegDataUrl(64, 48) }, origin)).json();
    const line = await (await client.post(`/api/cameras/${camera.id}/lines`, { name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } }, origin)).json();
    const polygon = [
      { x: 0, y: 0 },
      { x: 0.4, y: 0 },
      { x: 0.4, y: 1 },
    ];
    const zone = await (await client.post(`/api/cameras/${camera.id}/zones`, { name: "Queue", polygon, loiterSeconds: 20 }, origin)).json();
    const at = Date.now() - 5_000;
    const box = { x: 0.45, y: 0.2, w: 0.1, h: 0.5 };
    // The studio saves the crossing's photo first and names it in the event, with Moondream's description.
    const before = receiver.requests.length;
    // Saved as the studio saves it: auto-captured with the event's box, marked as the event's photo.
    const photo = await (
      await client.post(
        "/api/photos",
        {
          imageData: await jpegDataUrl(64, 48),
          cameraId: camera.id,
          autoCapture: true,
          visionEvent: true,
          detectionQuery: "Door: person crossed in",
          detectionBoxes: [{ x_min: 0.45, y_min: 0.2, x_max: 0.55, y_max: 0.7, label: "person #7" }],
        },
        origin,
      )
    ).json();
    const common = { trackId: 7, label: "person", box };
    const posted = await client.post(
      `/api/cameras/${camera.id}/vision-events`,
      {
        events: [
          { type: "line.crossed", lineId: line.id, direction: "in", at, ...common, photoId: photo.id, description: "A man in a red coat" },
          { type: "zone.entered", zoneId: zone.id, at: at + 1, ...common },
          { type: "zone.loitering", zoneId: zone.id, at: at + 2, dwellSeconds: 21.5, ...common },
          { type: "zone.exited", zoneId: zone.id, at: at + 3, dwellSeconds: 30, ...common },
        ],
      },
      origin,
    );
    expect(posted.status).toBe(200);
    await receiver.waitFor((r) => r.requests.length >= before + 4);
    // A detection webhook for the photo, had one been queued, was queued before the events and is sent first.
    const received = receiver.requests.slice(before);
    expect(received.every((r) => r.verified)).toBe(true);
    const byType = Object.fromEntries(received.map((r) => [r.payload.type, r.payload]));
    // Four events, and no detection webhook for the event's photo (the line.crossed carries it).
    expect(received).toHaveLength(4);
    expect(Object.keys(byType).sort()).toEqual(["line.crossed", "zone.entered", "zone.exited", "zone.loitering"]);
    const where = { cameraId: camera.id, cameraName: "Entrance", trackId: 7, label: "person", box };
    expect(byType["line.crossed"]).toEqual({
      type: "line.crossed",
      event: "line.crossed",
      timestamp: new Date(at).toISOString(),
      data: {
        ...where,
        at: new Date(at).toISOString(),
        lineId: line.id,
        lineName: "Door",
        direction: "in",
        photoId: photo.id,
        photoUrl: expect.stringMatching(new RegExp(`/api/photos/${photo.id}/image\\?owner=`)),
        description: "A man in a red coat",
      },
    });
    expect(byType["zone.loitering"]!.data).toEqual({ ...where, at: new Date(at + 2).toISOString(), zoneId: zone.id, zoneName: "Queue", dwellSeconds: 21.5 });
    expect(byType["zone.exited"]!.data).toMatchObject({ zoneId: zone.id, dwellSeconds: 30 });
  });

  it("sends search.matched when a newly saved photo matches a saved search, signed, with a link to the photo", async () => {
    const { client } = await userWithWebhook();
    const saved = await (await client.post("/api/saved-searches", { name: "Forklift in the yard", query: { q: "forklift" }, notifyWebhook: true })).json();
    const before = receiver.requests.length;
    const photo = await (await client.post("/api/photos", { imageData: await jpegDataUrl(64, 48), description: "A forklift lifts a pallet" })).json();
    await receiver.waitFor((r) => r.requests.length > before);
    const [event] = receiver.requests.slice(before);
    expect(event!.verified).toBe(true);
    expect(event!.payload).toMatchObject({
      type: "search.matched",
      data: { savedSearchId: saved.id, name: "Forklift in the yard", query: { q: "forklift" }, photoId: photo.id, description: "A forklift lifts a pallet" },
    });
    expect(event!.payload.data.photoUrl).toMatch(new RegExp(`/api/photos/${photo.id}/image\\?owner=`));
  });

  it("loses nothing when the app restarts mid-retry", async () => {
    const { client } = await userWithWebhook();
    receiver.respond = ({ attempt }) => (attempt === 1 ? { status: 503, headers: { "retry-after": "3" } } : { status: 200 });
    const before = receiver.requests.length;
    await autoCapture(client);
    await receiver.waitFor((r) => r.requests.length > before);
    const id = receiver.requests[before]!.id;
    expect(await app.stop()).toBe(0);
    app = await startApp(env);
    await receiver.waitFor((r) => r.accepted().some((x) => x.id === id), 60_000);
    expect(receiver.requests.filter((r) => r.id === id).map((r) => r.status)).toEqual([503, 200]);
  });

  it("sent bodies that parse against their event's schema in the catalogue, for every event type sent above", () => {
    const sent = new Set<string>();
    for (const request of receiver.requests) {
      const body = JSON.parse(request.body) as { type: string };
      expect(WEBHOOK_EVENT_TYPES, `an event type the catalogue lacks: ${body.type}`).toContain(body.type);
      const parsed = webhookEvents[body.type as WebhookEventType].schema.safeParse(body);
      expect(parsed.error?.issues ?? [], `${body.type}: ${request.body}`).toEqual([]);
      sent.add(body.type);
    }
    expect([...sent].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it("never delivers the same webhook-id twice successfully", () => {
    const ids = receiver.accepted().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
