// E-mail and SMS alerts: a real SMTP server (smtp-server) and a Twilio-shaped SMS endpoint on loopback
// receive the verification codes and the alerts; the cooldown holds; unconfigured servers explain themselves.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegBytes, jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";
import { openTestBlobStore } from "../support/blob-store";
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from "../fakes/smtp/server";

interface Sms {
  to: string;
  from: string;
  body: string;
  auth: string;
}

let app: TestApp;
let smtp: FakeSmtp;
let smsServer: http.Server;
let mails: ReceivedMail[];
const texts: Sms[] = [];
let databaseUrl: string;
let dataDir: string;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  mails = smtp.mails;
  const smtpPort = smtp.port;

  smsServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      if (!req.url?.startsWith("/2010-04-01/Accounts/AC_test/Messages.json")) return res.writeHead(404).end();
      texts.push({ to: form.get("To")!, from: form.get("From")!, body: form.get("Body")!, auth: req.headers.authorization ?? "" });
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ sid: `SM${texts.length}`, status: "queued" }));
    });
  });
  await new Promise<void>((resolve) => smsServer.listen(0, "127.0.0.1", resolve));
  const smsPort = (smsServer.address() as AddressInfo).port;

  databaseUrl = await createOwnDatabase();
  dataDir = tempDir("alerts");
  app = await startApp({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: dataDir,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtpPort),
    SMTP_FROM: "Framewise Alerts <alerts@framewise.test>",
    SMS_ACCOUNT_SID: "AC_test",
    SMS_AUTH_TOKEN: "sms-token",
    SMS_FROM: "+15005550006",
    SMS_API_URL: `http://127.0.0.1:${smsPort}`,
    PUBLIC_URL: "https://studio.framewise.test",
  });
});

afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await new Promise<void>((resolve) => smsServer?.close(() => resolve()));
});

/** The message with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const codeIn = (text: string) => /verification code is (\d{6})/.exec(text)?.[1];

async function verifiedUser(): Promise<TestUser & { email: string; phone: string }> {
  const user = await signUpUser({ baseUrl: app.url });
  const email = `${user.username}@example.test`;
  const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
  expect((await user.client.post("/api/alerts/contacts", { channel: "email", address: email })).status).toBe(200);
  const mail = await until(async () => mails.find((m) => m.to.includes(email)), Boolean);
  const wrong = await user.client.post("/api/alerts/contacts/verify", { channel: "email", code: codeIn(mail!.raw) === "000000" ? "111111" : "000000" });
  expect(wrong.status).toBe(400);
  const ok = await user.client.post("/api/alerts/contacts/verify", { channel: "email", code: codeIn(mail!.raw) });
  expect(ok.status).toBe(200);

  expect((await user.client.post("/api/alerts/contacts", { channel: "sms", address: phone.replace("+1415", "+1 (415) ") })).status).toBe(200);
  const sms = await until(async () => texts.find((t) => t.to === phone), Boolean);
  expect(sms!.auth).toBe(`Basic ${Buffer.from("AC_test:sms-token").toString("base64")}`);
  const status = await (await user.client.post("/api/alerts/contacts/verify", { channel: "sms", code: codeIn(sms!.body) })).json();
  expect(status.contacts).toEqual([
    { channel: "email", address: email, verified: true, pending: false },
    { channel: "sms", address: phone, verified: true, pending: false },
  ]);
  return { ...user, email, phone };
}

async function autoCapture(user: TestUser, object: string) {
  const response = await user.client.post("/api/photos", {
    imageData: await jpegDataUrl(),
    autoCapture: true,
    detectionQuery: object,
    detectionBoxes: [{ x_min: 0.1, y_min: 0.1, x_max: 0.5, y_max: 0.5 }],
  });
  expect(response.status).toBe(201);
}

describe("alerts", () => {
  it("e-mails and texts a verified contact when the object is detected, then holds the cooldown", async () => {
    const user = await verifiedUser();
    const created = await user.client.post("/api/alerts/rules", { kind: "detection", object: "Forklift", email: true, sms: true });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ kind: "detection", object: "Forklift", cooldownMinutes: 5, enabled: true });
    const mailsBefore = mails.filter((m) => m.to.includes(user.email)).length;

    await autoCapture(user, "forklift");
    const alertMail = await until(async () => mails.filter((m) => m.to.includes(user.email)).slice(mailsBefore)[0], Boolean);
    expect(alertMail!.raw).toContain("Subject: Framewise alert: forklift detected on an unnamed camera");
    expect(decoded(alertMail!.raw)).toMatch(/https:\/\/studio\.framewise\.test\/api\/photos\/[0-9a-f-]{36}\/image\?owner=/);
    const alertSms = await until(async () => texts.filter((t) => t.to === user.phone).find((t) => t.body.startsWith("Framewise: forklift detected")), Boolean);
    expect(alertSms!.from).toBe("+15005550006");
    // Both sends are on the timeline, after the detection's auto-capture.
    const sent = await until(
      async () => (await (await user.client.get("/api/timeline?type=alert.sent")).json()) as { events: { targetName: string; detail: { channel: string } }[] },
      (page) => page.events.length === 2,
    );
    expect(sent.events.map((event) => event.detail.channel).sort()).toEqual(["email", "sms"]);
    expect(sent.events[0]!.targetName).toBe("Framewise alert: forklift detected on an unnamed camera");

    // Within the cooldown: more detections send nothing more. A marker photo afterwards proves the queue drained.
    await autoCapture(user, "forklift");
    await autoCapture(user, "forklift");
    const rules = await (await user.client.get("/api/alerts/rules")).json();
    expect(rules[0].lastFiredAt).not.toBeNull();
    await user.client.post("/api/alerts/rules", { kind: "detection", object: "marker", email: true, sms: false });
    await autoCapture(user, "marker");
    await until(async () => mails.some((m) => m.to.includes(user.email) && m.raw.includes("marker detected")), Boolean);
    expect(mails.filter((m) => m.to.includes(user.email) && m.raw.includes("forklift detected"))).toHaveLength(1);
    expect(texts.filter((t) => t.to === user.phone && t.body.includes("forklift detected"))).toHaveLength(1);
  });

  it("alerts when counting exceeds the number of people", async () => {
    const user = await verifiedUser();
    await user.client.post("/api/alerts/rules", { kind: "people_count", threshold: 3, email: false, sms: true, cooldownMinutes: 1 });
    const session = await (await user.client.post("/api/people-count/sessions", { cameraName: "Lobby" })).json();
    const { addSnapshotForTest } = await inProcess();
    await addSnapshotForTest(user.id, session.id, 2);
    await addSnapshotForTest(user.id, session.id, 5);
    const sms = await until(async () => texts.find((t) => t.to === user.phone && t.body.includes("people counted")), Boolean);
    expect(sms!.body).toMatch(/^Framewise: 5 people counted on Lobby at /);
    expect(texts.filter((t) => t.to === user.phone && t.body.includes("2 people"))).toHaveLength(0);
  });

  it("alerts on a local count the studio posts, as on Moondream's", async () => {
    const user = await verifiedUser();
    await user.client.post("/api/alerts/rules", { kind: "people_count", threshold: 3, email: false, sms: true, cooldownMinutes: 1 });
    const session = await (await user.client.post("/api/people-count/sessions", { cameraName: "Classroom", source: "local" })).json();
    const imageData = await jpegDataUrl(64, 48);
    for (const count of [1, 7]) expect((await user.client.post(`/api/people-count/sessions/${session.id}/snapshots`, { imageData, count })).status).toBe(201);
    const sms = await until(async () => texts.find((t) => t.to === user.phone && t.body.includes("people counted")), Boolean);
    expect(sms!.body).toMatch(/^Framewise: 7 people counted on Classroom at /);
  });

  it("alerts on the studio's local-vision events for the rule's class and kind only", async () => {
    const user = await verifiedUser();
    const origin = { origin: user.client.baseUrl };
    const camera = await (await user.client.post("/api/cameras", { name: "Warehouse", thumbnail: await jpegDataUrl(64, 48) }, origin)).json();
    const zone = await (
      await user.client.post(
        `/api/cameras/${camera.id}/zones`,
        {
          name: "Loading bay",
          polygon: [
            { x: 0, y: 0 },
            { x: 1, y: 0 },
            { x: 1, y: 1 },
          ],
          loiterSeconds: 60,
        },
        origin,
      )
    ).json();
    const rule = await user.client.post("/api/alerts/rules", { kind: "zone_loitering", object: "Person", email: false, sms: true }, origin);
    expect(rule.status).toBe(201);
    expect(await rule.json()).toMatchObject({ kind: "zone_loitering", object: "Person", threshold: null });
    const event = { zoneId: zone.id, trackId: 4, at: Date.now(), box: { x: 0.2, y: 0.2, w: 0.1, h: 0.3 } };
    // A dog loitering, and a person entering: neither is the rule's.
    const posted = await user.client.post(
      `/api/cameras/${camera.id}/vision-events`,
      {
        events: [
          { ...event, type: "zone.loitering", label: "dog", dwellSeconds: 61 },
          { ...event, type: "zone.entered", label: "person" },
          { ...event, type: "zone.loitering", label: "person", dwellSeconds: 75 },
        ],
      },
      origin,
    );
    expect(posted.status).toBe(200);
    const sms = await until(async () => texts.find((t) => t.to === user.phone && t.body.includes("Loading bay")), Boolean);
    expect(sms!.body).toMatch(/^Framewise: a person is loitering in "Loading bay" on Warehouse \(after 75 s\) at .* https:\/\/studio\.framewise\.test\/studio$/);
    expect(texts.filter((t) => t.to === user.phone && t.body.includes("dog"))).toHaveLength(0);

    // A rule on one zone: entering another zone sends nothing; entering this one does.
    const office = await (
      await user.client.post(
        `/api/cameras/${camera.id}/zones`,
        {
          name: "Office",
          polygon: [
            { x: 0, y: 0 },
            { x: 0.5, y: 0 },
            { x: 0.5, y: 0.5 },
          ],
        },
        origin,
      )
    ).json();
    const line = await (await user.client.post(`/api/cameras/${camera.id}/lines`, { name: "Gate", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } }, origin)).json();
    const wrongTarget = await user.client.post("/api/alerts/rules", { kind: "zone_entered", targetId: line.id, email: false, sms: true }, origin);
    expect(wrongTarget.status).toBe(400);
    expect((await wrongTarget.json()).errors.targetId).toEqual(["Choose one of your zones"]);
    const onOffice = await user.client.post("/api/alerts/rules", { kind: "zone_entered", targetId: office.id, email: false, sms: true }, origin);
    expect(await onOffice.json()).toMatchObject({ kind: "zone_entered", object: null, targetId: office.id });
    await user.client.post(`/api/cameras/${camera.id}/vision-events`, { events: [{ ...event, type: "zone.entered", label: "cat" }] }, origin);
    await user.client.post(
      `/api/cameras/${camera.id}/vision-events`,
      { events: [{ ...event, zoneId: office.id, type: "zone.entered", label: "cat", description: "A grey cat" }] },
      origin,
    );
    const entered = await until(async () => texts.find((t) => t.to === user.phone && t.body.includes("entered")), Boolean);
    expect(entered!.body).toMatch(/^Framewise: a cat entered "Office" on Warehouse at .*\. A grey cat https:\/\/studio\.framewise\.test\/studio$/);
  });

  it("e-mails a line crossing on the rule's line for its class, lists the rule with its line's name, and refuses another user's line", async () => {
    const user = await verifiedUser();
    const origin = { origin: user.client.baseUrl };
    const camera = await (await user.client.post("/api/cameras", { name: "Shop", thumbnail: await jpegDataUrl(64, 48) }, origin)).json();
    const lineAt = (name: string) => user.client.post(`/api/cameras/${camera.id}/lines`, { name, a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } }, origin);
    const door = await (await lineAt("Front door")).json();
    const till = await (await lineAt("Till")).json();

    // Another user's line is no target, whatever the kind.
    const stranger = await signUpUser({ baseUrl: app.url });
    const theirCamera = await (await stranger.client.post("/api/cameras", { name: "Theirs", thumbnail: await jpegDataUrl(64, 48) })).json();
    const theirLine = await (await stranger.client.post(`/api/cameras/${theirCamera.id}/lines`, { name: "Theirs", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } })).json();
    const refused = await user.client.post("/api/alerts/rules", { kind: "line_crossed", targetId: theirLine.id, email: true, sms: false }, origin);
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors.targetId).toEqual(["Choose one of your lines"]);

    const created = await user.client.post("/api/alerts/rules", { kind: "line_crossed", object: "person", targetId: door.id, email: true, sms: false }, origin);
    expect(created.status).toBe(201);
    const rule = await created.json();
    expect(rule).toMatchObject({ kind: "line_crossed", object: "person", targetId: door.id, target: { name: "Front door", cameraId: camera.id, cameraName: "Shop" } });
    expect(await (await user.client.get("/api/alerts/rules")).json()).toEqual([rule]);

    const crossing = { type: "line.crossed", direction: "in", trackId: 7, at: Date.now(), box: { x: 0.4, y: 0.2, w: 0.2, h: 0.6 } };
    const mailsBefore = mails.filter((m) => m.to.includes(user.email)).length;
    // A person at the till and a dog at the door: neither is the rule's; a person at the door is.
    await user.client.post(
      `/api/cameras/${camera.id}/vision-events`,
      {
        events: [
          { ...crossing, lineId: till.id, label: "person" },
          { ...crossing, lineId: door.id, label: "dog" },
        ],
      },
      origin,
    );
    await user.client.post(`/api/cameras/${camera.id}/vision-events`, { events: [{ ...crossing, lineId: door.id, label: "person" }] }, origin);
    const mail = await until(async () => mails.filter((m) => m.to.includes(user.email)).slice(mailsBefore)[0], Boolean);
    expect(mail!.raw).toContain("Subject: Framewise alert: person crossed Front door");
    expect(decoded(mail!.raw)).toContain('Framewise: a person crossed "Front door" on Shop (direction in)');
    expect(mails.filter((m) => m.to.includes(user.email)).slice(mailsBefore)).toHaveLength(1);

    // A deleted line leaves the rule listed without a name (it never fires again).
    expect((await user.client.request("DELETE", `/api/lines/${door.id}`, { headers: origin })).status).toBe(204);
    expect((await (await user.client.get("/api/alerts/rules")).json())[0]).toMatchObject({ targetId: door.id, target: null });
  });

  it("e-mails and texts once per photo that matches a saved search", async () => {
    const user = await verifiedUser();
    const created = await user.client.post("/api/saved-searches", { name: "Fox in the garden", query: { q: "fox garden" }, notifyEmail: true, notifySms: true });
    expect(created.status).toBe(201);
    const photo = async (description: string) => expect((await user.client.post("/api/photos", { imageData: await jpegDataUrl(), description })).status).toBe(201);
    await photo("A fox crosses the garden at dusk");
    await photo("A fox on the street");
    await photo("The fox again, in the garden");
    const matched = () => mails.filter((m) => m.to.includes(user.email) && decoded(m.raw).replace(/\s+/g, " ").includes('matches your saved search "Fox in the garden"'));
    await until(
      async () => matched().length,
      (n) => n >= 2,
    );
    await until(
      async () => texts.filter((t) => t.to === user.phone && t.body.includes('matches "Fox in the garden"')).length,
      (n) => n >= 2,
    );
    expect(decoded(matched()[0]!.raw)).toMatch(/https:\/\/studio\.framewise\.test\/api\/photos\/[0-9a-f-]{36}\/image\?owner=/);
    // A marker alert afterwards proves the queue drained: the street photo sent nothing, each match sent once.
    await user.client.post("/api/alerts/rules", { kind: "detection", object: "marker", email: true, sms: false });
    await autoCapture(user, "marker");
    await until(async () => mails.some((m) => m.to.includes(user.email) && m.raw.includes("marker detected")), Boolean);
    expect(matched()).toHaveLength(2);
  });

  it("refuses alerts to unverified contacts and validates input", async () => {
    const user = await signUpUser({ baseUrl: app.url });
    const bad = await user.client.post("/api/alerts/contacts", { channel: "sms", address: "12345" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.address[0]).toContain("international form");
    const noChannel = await user.client.post("/api/alerts/rules", { kind: "detection", object: "cat", email: false, sms: false });
    expect(noChannel.status).toBe(400);
    const resend = await user.client.post("/api/alerts/contacts", { channel: "email", address: "a@example.test" });
    expect(resend.status).toBe(200);
    expect((await user.client.post("/api/alerts/contacts", { channel: "email", address: "a@example.test" })).status).toBe(429);
  });

  it("explains what the operator must set when nothing is configured", async () => {
    const { client } = await signUpUser(); // the shared app has no SMTP or SMS settings
    expect(await (await client.get("/api/alerts")).json()).toEqual({ emailAvailable: false, smsAvailable: false, contacts: [] });
    const refused = await client.post("/api/alerts/contacts", { channel: "email", address: "x@example.test" });
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toContain("SMTP_HOST");
  });
});

/**
 * Counted snapshots come from the vision service (which needs Moondream), so the test calls the counting
 * service in process against this file's app database; the app's queue then sends the alert.
 */
async function inProcess() {
  process.env.DATA_DIR = dataDir;
  process.env.LOG_LEVEL = "silent";
  const { initDb, db } = await import("#db/index");
  initDb(databaseUrl, 2);
  // As an app process does at start-up: the snapshot's count event reaches the alert rules.
  (await import("#server/automation/listeners")).registerListeners();
  const { addSnapshot } = await import("#server/counting/service");
  const blobs = await openTestBlobStore();
  return {
    async addSnapshotForTest(userId: string, sessionId: string, count: number) {
      await addSnapshot(db(), blobs, userId, sessionId, { image: await jpegBytes(64, 48), aiCount: count });
    },
  };
}
