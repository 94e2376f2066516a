// PTZ auto-tracking in a closed loop, all on loopback: a fake camera per protocol steers a simulated head
// from the commands it receives over the wire; its rendered picture goes to a colour detector, the box to the
// studio's follower, and the follower's speeds to the app's real POST /api/ptz/drive (and /api/ptz/preset).
// The head runs on a simulated clock that advances only by the detection latency per round, so the assertions
// count detection rounds, never wall-clock time. The detector is called directly rather than through the fake
// Moondream: the vision route adds its key pacing and JPEG round trip but nothing about following.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAD_ZONE, DEFAULT_FOLLOW_SETTINGS, Follower, ZOOM_BAND } from "#app/studio/ptz/follow";
import type { PtzProtocol } from "#app/schemas/ptz";
import { findColour, SimulatedHead, WIDE_HFOV, type WorldObject } from "../fakes/ptz/head";
import { startFakeHttpCgi } from "../fakes/ptz/http-cgi";
import { startFakeOnvif } from "../fakes/ptz/onvif";
import { startFakeVisca } from "../fakes/ptz/visca";
import { type Client, signUpUser } from "../support/client";

const RED: [number, number, number] = [220, 30, 30];
/**
 * The stated bound: the corner subject is centred within 12 detection rounds — 6 s of simulated time with
 * answers 0.5 s after their frame (each case below has its own latency; the next frame is taken as the answer arrives).
 */
const MAX_ROUNDS_TO_CENTRE = 12;
const RETURN_PRESET = 7;
const LOST_SECONDS = 2;

let client: Client;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  client = (await signUpUser()).client;
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function camera(protocol: PtzProtocol, head: SimulatedHead) {
  if (protocol === "visca") {
    const fake = await startFakeVisca({ head });
    closers.push(fake.close);
    return { ip: "127.0.0.1", protocol, port: fake.port };
  }
  if (protocol === "http-cgi") {
    const fake = await startFakeHttpCgi({ head, password: "cgi" });
    closers.push(fake.close);
    return { ip: "127.0.0.1", protocol, port: fake.port, password: "cgi" };
  }
  const fake = await startFakeOnvif({ head, password: "onvif" });
  closers.push(fake.close);
  return { ip: "127.0.0.1", protocol, port: fake.port, password: "onvif" };
}

const signFlips = (values: number[]) =>
  values.filter((v, i) => i > 0 && Math.abs(v) >= DEAD_ZONE.inner && Math.abs(values[i - 1]!) >= DEAD_ZONE.inner && Math.sign(v) !== Math.sign(values[i - 1]!)).length;

async function post(path: string, body: unknown) {
  const response = await client.post(path, body);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
}

describe.each([
  ["visca", false, 300],
  ["http-cgi", false, 1000],
  ["onvif", false, 500],
  ["onvif", true, 500],
] as const)("following a subject over %s (zoom %s, answers %i ms late)", (protocol, zoom, LATENCY_MS) => {
  it(`centres a corner subject within ${MAX_ROUNDS_TO_CENTRE} rounds (${(MAX_ROUNDS_TO_CENTRE * LATENCY_MS) / 1000} s simulated), holds it without oscillating, and returns to the preset once it is gone`, async () => {
    let now = 0;
    const head = new SimulatedHead(() => now);
    // The subject starts at (0.1, 0.1) of the picture (top left), 0.2 of its height; a green distractor elsewhere.
    const subject: WorldObject = { pan: -0.4 * WIDE_HFOV, tilt: 0.4 * head.vfov, widthDeg: 3, heightDeg: 0.2 * head.vfov, colour: RED, visible: true };
    head.objects.push(subject, { pan: 20, tilt: -8, widthDeg: 6, heightDeg: 6, colour: [30, 200, 30], visible: true });
    const connection = await camera(protocol, head);
    await post("/api/ptz/preset", { connection, action: "save", number: RETURN_PRESET, name: "Wide" });
    const follower = new Follower({ ...DEFAULT_FOLLOW_SETTINGS, zoom, targetHeight: 0.3, returnPreset: RETURN_PRESET, lostSeconds: LOST_SECONDS });

    /** One detection round: picture now, result LATENCY_MS later (the head keeps moving meanwhile), command sent. */
    const round = async () => {
      const frameAt = now;
      const box = findColour(head.render(), RED);
      now += LATENCY_MS;
      const command = follower.update(box ? [box] : [], frameAt);
      await post("/api/ptz/drive", { connection, pan: command.pan, tilt: command.tilt, ...(zoom ? { zoom: command.zoom } : {}) });
      if (command.recallPreset !== null) await post("/api/ptz/preset", { connection, action: "recall", number: command.recallPreset });
      return { box, command };
    };

    const offsets: { x: number; y: number; height: number }[] = [];
    for (let i = 0; i < 40; i++) {
      const { box } = await round();
      expect(box, `the subject left the picture in round ${i}`).not.toBeNull();
      offsets.push({ x: (box!.x_min + box!.x_max) / 2 - 0.5, y: 0.5 - (box!.y_min + box!.y_max) / 2, height: box!.y_max - box!.y_min });
    }
    expect(offsets[0]!.x).toBeLessThan(-0.35);
    expect(offsets[0]!.y).toBeGreaterThan(0.35);
    const inside = (o: { x: number; y: number }) => Math.abs(o.x) < DEAD_ZONE.outer && Math.abs(o.y) < DEAD_ZONE.outer;
    const settled = offsets.findIndex((_, i) => offsets.slice(i).every(inside));
    expect(settled, JSON.stringify(offsets.slice(0, 16))).toBeGreaterThanOrEqual(0);
    expect(settled).toBeLessThanOrEqual(MAX_ROUNDS_TO_CENTRE);
    expect(signFlips(offsets.map((o) => o.x))).toBeLessThanOrEqual(1);
    expect(signFlips(offsets.map((o) => o.y))).toBeLessThanOrEqual(1);
    // Settled means still: the camera received a stop and has not moved since.
    expect(head.velocity).toEqual({ pan: 0, tilt: 0, zoom: 0 });
    if (zoom) expect(Math.abs(offsets.at(-1)!.height / 0.3 - 1)).toBeLessThan(ZOOM_BAND.outer);
    else expect(head.zoom).toBe(1);

    // The subject goes: the camera holds still, then after LOST_SECONDS goes back to the preset.
    subject.visible = false;
    const heldAt = { pan: head.pan, tilt: head.tilt };
    // Counted from the last picture with the subject: the round whose picture is LOST_SECONDS later recalls.
    const lostRounds = Math.ceil((LOST_SECONDS * 1000) / LATENCY_MS);
    for (let i = 1; i < lostRounds; i++) {
      expect((await round()).command.recallPreset).toBeNull();
      expect({ pan: head.pan, tilt: head.tilt }).toEqual(heldAt);
    }
    expect((await round()).command.recallPreset).toBe(RETURN_PRESET);
    expect({ pan: head.pan, tilt: head.tilt, zoom: head.zoom }).toEqual({ pan: 0, tilt: 0, zoom: 1 });
    expect(follower.status.phase).toBe("lost");
    await post("/api/ptz/stop", { connection });
  });
});

describe("POST /api/ptz/drive", () => {
  it("answers out-of-range or fractional speeds with field errors, before any camera is contacted", async () => {
    const response = await client.post("/api/ptz/drive", { connection: { ip: "127.0.0.1", protocol: "visca", port: 9 }, pan: 25, tilt: 1.5, zoom: -30 });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
    const body = await response.json();
    expect(body.errors.pan).toEqual(["pan must be between -24 and 24"]);
    expect(body.errors.tilt).toEqual(["tilt must be a whole number"]);
    expect(body.errors.zoom).toEqual(["zoom must be between -24 and 24"]);
  });
});
