// PTZ follow on the server (issue 30), all on loopback. First the closed loop of the server's follow itself: a fake
// PTZ camera per protocol steers a simulated head from the commands it receives; its rendered picture's subject (found
// by colour, standing in for the pipeline's tracker) goes to the server's ServerFollow as a scene track, and its
// commands go through the server's real PtzService over the wire. The head runs on a simulated clock advanced by the
// detection interval per scene, so the bounds count scenes, never wall-clock time. Then the production app as its own
// processes: a follow switched on for a watched PTZ camera starts in the process running the camera's pipeline, and a
// manual PTZ command sent to another process pauses it there (PostgreSQL NOTIFY), until the studio switches it on again.
import { execFileSync } from "node:child_process";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { DEAD_ZONE } from "#app/studio/ptz/follow";
import { DEFAULT_FOLLOW } from "#app/schemas/watch";
import type { PtzConnection, PtzProtocol } from "#app/schemas/ptz";
import { ServerFollow, type FollowCamera } from "#server/local-vision/pipeline/follow";
import type { LiveScene } from "#server/local-vision/pipeline/camera-pipeline";
import { lanAllowed, parseNetworks } from "#server/net/address-policy";
import { PtzService } from "#server/ptz/service";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { FFMPEG } from "../fakes/ip-camera/source";
import { findColour, SimulatedHead, WIDE_HFOV, type WorldObject } from "../fakes/ptz/head";
import { startFakeHttpCgi } from "../fakes/ptz/http-cgi";
import { startFakeOnvif } from "../fakes/ptz/onvif";
import { startFakeVisca } from "../fakes/ptz/visca";
import { signUpUser, type Client } from "../support/client";
import { realDataFile } from "../support/real-data";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const RED: [number, number, number] = [220, 30, 30];
/** The detector's rate the scenes come at (the watch's default 5 frames/s). */
const SCENE_MS = 200;
/** The stated bound: a corner subject is centred within this many scenes (4 s of simulated time). */
const MAX_SCENES_TO_CENTRE = 20;
const RETURN_PRESET = 7;
const LOST_SECONDS = 2;
const log = pino({ level: "silent" });

describe("the server's follow drives a PTZ head from its scenes", () => {
  const ptz = new PtzService({ targets: { addresses: lanAllowed(parseNetworks("127.0.0.0/8")), ports: [{ from: 1024, to: 65535 }] }, idleMs: 60_000 });
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    ptz.closeAll();
    await Promise.all(closers.map((close) => close()));
  });

  async function connect(protocol: PtzProtocol, head: SimulatedHead): Promise<PtzConnection> {
    if (protocol === "visca") {
      const fake = await startFakeVisca({ head });
      closers.push(fake.close);
      return { ip: "127.0.0.1", protocol, port: fake.port, username: "admin", password: "admin" };
    }
    const fake = protocol === "http-cgi" ? await startFakeHttpCgi({ head, password: "cgi" }) : await startFakeOnvif({ head, password: "onvif" });
    closers.push(fake.close);
    return { ip: "127.0.0.1", protocol, port: fake.port, username: "admin", password: protocol === "http-cgi" ? "cgi" : "onvif" };
  }

  it.each(["visca", "http-cgi", "onvif"] as const)(
    `over %s: centres a corner subject within ${MAX_SCENES_TO_CENTRE} scenes, holds it, and recalls the return preset once it is lost`,
    async (protocol) => {
      let now = 0;
      const head = new SimulatedHead(() => now);
      const subject: WorldObject = { pan: -0.4 * WIDE_HFOV, tilt: 0.3 * head.vfov, widthDeg: 3, heightDeg: 0.25 * head.vfov, colour: RED, visible: true };
      head.objects.push(subject);
      const connection = await connect(protocol, head);
      await ptz.preset(connection, "save", RETURN_PRESET, "Wide");
      // Every command the follow sends is awaited before the clock moves on, so the head turns exactly as commanded.
      const sent: Promise<unknown>[] = [];
      const track = <T>(promise: Promise<T>) => (sent.push(promise), promise);
      const camera: FollowCamera = {
        drive: (pan, tilt, zoom) => track(ptz.drive(connection, pan, tilt, zoom)),
        stop: () => track(ptz.stop(connection, "all")),
        recallPreset: (n) => track(ptz.preset(connection, "recall", n)),
      };
      const follow = new ServerFollow({ ...DEFAULT_FOLLOW, enabled: true, returnPreset: RETURN_PRESET, lostSeconds: LOST_SECONDS }, camera, log);

      const scene = async (): Promise<{ x: number; y: number } | null> => {
        const box = findColour(head.render(), RED);
        const live: LiveScene = { at: now, tracks: box ? [{ id: 1, label: "person", box, score: 0.9 }] : [], lineCounts: {}, zoneOccupancy: {} };
        follow.onScene(live);
        while (sent.length) await sent.shift();
        now += SCENE_MS;
        return box && { x: (box.x_min + box.x_max) / 2 - 0.5, y: 0.5 - (box.y_min + box.y_max) / 2 };
      };

      const offsets: { x: number; y: number }[] = [];
      for (let i = 0; i < 40; i++) {
        const offset = await scene();
        expect(offset, `the subject left the picture at scene ${i}`).not.toBeNull();
        offsets.push(offset!);
      }
      expect(offsets[0]!.x).toBeLessThan(-0.35);
      const inside = (o: { x: number; y: number }) => Math.abs(o.x) < DEAD_ZONE.outer && Math.abs(o.y) < DEAD_ZONE.outer;
      const settled = offsets.findIndex((_, i) => offsets.slice(i).every(inside));
      expect(settled, JSON.stringify(offsets.slice(0, 24))).toBeGreaterThanOrEqual(0);
      expect(settled).toBeLessThanOrEqual(MAX_SCENES_TO_CENTRE);
      expect(head.velocity).toEqual({ pan: 0, tilt: 0, zoom: 0 });

      // Gone: held still, then back to the preset once LOST_SECONDS have passed without it.
      subject.visible = false;
      // Counted from the last scene with the subject: the one LOST_SECONDS later recalls.
      const lostScenes = (LOST_SECONDS * 1000) / SCENE_MS;
      for (let i = 1; i < lostScenes; i++) await scene();
      expect(follow.phase).toBe("searching");
      expect({ pan: head.pan, tilt: head.tilt }).not.toEqual({ pan: 0, tilt: 0 });
      await scene();
      expect(follow.phase).toBe("lost");
      expect({ pan: head.pan, tilt: head.tilt, zoom: head.zoom }).toEqual({ pan: 0, tilt: 0, zoom: 1 });
    },
    60_000,
  );
});

describe("the follow in the production app's processes", () => {
  const PASSWORD = "s3cret-follow";
  // The fake camera's picture is its own head's view of a world holding a real person (COCO val2017 000000086956's
  // largest person, cut by its ground-truth box), to the right of where the head looks: the built-in detector finds it.
  const head = new SimulatedHead();
  const PERSON = { file: "images/000000086956.jpg", x: 247, y: 131, width: 233, height: 508 };
  const heightDeg = 0.6 * head.vfov;
  const subject: WorldObject = { pan: 0.3 * WIDE_HFOV, tilt: 0, widthDeg: (heightDeg * PERSON.width) / PERSON.height, heightDeg, colour: RED, visible: true };
  const STREAM = { width: 640, height: 360, fps: 5, gop: 5 };
  let camera: FakeIpCamera;
  const apps: TestApp[] = [];
  let client: Client;
  let cameraId: string;
  const watch = { enabled: true, labels: ["person"], fps: 5, width: 640 };
  const follow = { enabled: true, returnPreset: 5, lostSeconds: 3 };

  beforeAll(async () => {
    const raw = execFileSync(FFMPEG, [
      "-loglevel",
      "error",
      "-i",
      realDataFile(PERSON.file),
      "-vf",
      `crop=${PERSON.width}:${PERSON.height}:${PERSON.x}:${PERSON.y}`,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ]);
    subject.image = { width: PERSON.width, height: PERSON.height, data: new Uint8Array(raw) };
    head.objects.push(subject);
    let databaseUrl: string;
    [camera, databaseUrl] = await Promise.all([startFakeIpCamera({ username: "admin", password: PASSWORD, head, headView: true, main: STREAM, sub: STREAM }), createOwnDatabase()]);
    const env = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: "4",
      DATA_DIR: tempDir("server-follow"),
      PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
      PTZ_ALLOWED_PORTS: "1024-65535",
      LOCAL_VISION_DETECTOR_THREADS: "1",
    };
    // One process runs the pipelines; the other serves the studio only (LOCAL_VISION_PIPELINES=false).
    apps.push(await startApp(env, { detached: true }), await startApp({ ...env, LOCAL_VISION_PIPELINES: "false" }, { detached: true }));
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) if (app.process.exitCode === null && app.process.signalCode === null) await app.signalGroup("SIGKILL");
    await camera?.close();
  });

  const logged = (app: TestApp, text: string) => app.logs.join("").split(text).length - 1;
  /** Where the person is in the camera's picture now (0.5: the centre). */
  const personX = () => head.project(subject.pan, subject.tilt).x;

  it("with no browser, turns the camera until the person is centred, and recalls the return preset once the person is gone", async () => {
    const [pipelines, web] = apps as [TestApp, TestApp];
    client = (await signUpUser({ baseUrl: web.url })).client;
    const added = await client.post("/api/cameras/ip", { name: "Stage", host: `127.0.0.1:${camera.ports.onvif}`, username: "admin", password: PASSWORD });
    expect(added.status).toBe(201);
    cameraId = ((await added.json()) as { id: string }).id;
    const checked = await until(
      async () => (await (await client.get(`/api/cameras/${cameraId}`)).json()) as { ip: { ptzProtocol: string | null; ptzChecking: boolean } },
      (c) => !c.ip.ptzChecking,
      30_000,
    );
    expect(checked.ip.ptzProtocol).toBe("onvif");
    // The wide view as preset 5 (saving is not a move: it pauses nothing).
    expect((await client.post("/api/ptz/preset", { connection: { cameraId }, action: "save", number: 5, name: "Wide" })).status).toBe(200);

    // A class the pipeline does not track cannot be followed (the message under follow.label).
    const refused = await client.put(`/api/cameras/${cameraId}/watch`, { ...watch, follow: { enabled: true, label: "car" } });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors["follow.label"]).toBeDefined();

    expect(personX()).toBeGreaterThan(0.75);
    // A person standing is never quite still: a sway of a degree either way (10 px) is the motion that wakes the
    // detector (an unchanging picture is a still, empty scene to the pipeline's motion gate).
    const centre = subject.pan;
    const sway = setInterval(() => (subject.pan = subject.pan === centre ? centre + 1 : centre), 400);
    onTestFinished(() => clearInterval(sway));
    const on = await client.put(`/api/cameras/${cameraId}/watch`, { ...watch, follow });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ follow: { ...follow, label: "person", pausedAt: null } });
    await until(
      async () => logged(pipelines, "PTZ follow started on the server"),
      (n) => n === 1,
      60_000,
    );
    // Centred by the server alone: within the follower's dead zone, the head having turned right toward the person.
    // (The bound is generous for a loaded 2-core machine: the pipeline's start and one detector thread.)
    await until(
      async () => Math.abs(personX() - 0.5),
      (offset) => offset < DEAD_ZONE.outer,
      120_000,
    ).catch(async (error: unknown) => {
      // What the pipeline saw (its tracks, detector rate) says whether detection or the follow failed.
      const state = JSON.stringify(await (await client.get(`/api/cameras/${cameraId}/watch`)).json());
      throw new Error(`${String(error)}; the watch: ${state}; the pipeline process's log: ${pipelines.logs.join("").slice(-3000)}`);
    });
    expect(head.pan).toBeGreaterThan(0.15 * WIDE_HFOV);
    expect(logged(web, "PTZ follow started on the server")).toBe(0);

    // The person leaves: lostSeconds later the head is back at the preset (straight ahead, where it was saved).
    subject.visible = false;
    await until(
      async () => ({ pan: head.pan, tilt: head.tilt }),
      (at) => at.pan === 0 && at.tilt === 0,
      60_000,
    );
  }, 400_000);

  it("is paused by a manual move sent to another process, and resumes when switched on again", async () => {
    const [pipelines] = apps as [TestApp, TestApp];
    // The joystick in a studio served by the web-only process.
    expect((await client.post("/api/ptz/drive", { connection: { cameraId }, pan: 4, tilt: 0 })).status).toBe(200);
    await until(
      async () => logged(pipelines, "PTZ follow paused by a manual move"),
      (n) => n === 1,
      10_000,
    );
    const paused = (await (await client.get(`/api/cameras/${cameraId}/watch`)).json()) as { follow: { enabled: boolean; pausedAt: string | null } };
    expect(paused.follow).toMatchObject({ enabled: true, pausedAt: expect.any(String) });
    expect((await client.post("/api/ptz/stop", { connection: { cameraId } })).status).toBe(200);
    const resumed = await client.put(`/api/cameras/${cameraId}/watch`, { ...watch, follow });
    expect(((await resumed.json()) as { follow: { pausedAt: string | null } }).follow.pausedAt).toBeNull();
    await until(
      async () => logged(pipelines, "PTZ follow started on the server"),
      (n) => n === 2,
      10_000,
    );
  }, 60_000);
});
