// Monitors running with no browser open: the job queue's worker and the camera stream supervisor run in this
// process (so the test can count grabs and holds), on a database of its own, against the fake IP camera, the fake
// Moondream and a webhook receiver on loopback. Everything is the real server code.
import { sql } from "kysely";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { fakeCameraRow, insertIpCamera } from "../support/ip-cameras";
import { countingFrames, type SnapshotGrabber } from "../support/monitors";
import { tempDir } from "../support/stack";
import { createOwnDatabase, startReceiver, until, type Receiver } from "../support/webhook-receiver";
import type * as DbModule from "#db/index";
import type * as Service from "#server/monitors/service";
import type * as Tasks from "#server/automation/tasks";
import type { Services } from "#server/services";

const SHARED_KEY = "shared-monitor-key";

let fake: FakeMoondream;
let camera: FakeIpCamera;
let receiver: Receiver;
let grabber: SnapshotGrabber;
let databaseUrl: string;
let db: DbModule.DB;
let monitors: typeof Service;
let tasks: typeof Tasks;
let services: Services;
let automation: Awaited<ReturnType<typeof Tasks.startAutomation>> | undefined;

beforeAll(async () => {
  [fake, camera, receiver, databaseUrl] = await Promise.all([
    startFakeMoondream(),
    startFakeIpCamera({ username: "admin", password: "s3cret" }),
    startReceiver(),
    createOwnDatabase(),
  ]);
  // This process is the app server here: its configuration is read once, on first use, from these.
  Object.assign(process.env, {
    DATA_DIR: tempDir("monitors"),
    LOG_LEVEL: "silent",
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: SHARED_KEY,
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0", // one provider failure is one failed tick
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8",
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8", // the fake camera's loopback address and random ports
    PTZ_ALLOWED_PORTS: "1024-65535",
  });
  const dbModule = await import("#db/index");
  dbModule.initDb(databaseUrl, 6);
  await dbModule.migrate(dbModule.db());
  // As the composition root does first: the ticks' domain events (photo saved, count recorded) reach their listeners.
  (await import("#server/automation/listeners")).registerListeners();
  db = dbModule.db();
  monitors = await import("#server/monitors/service");
  tasks = await import("#server/automation/tasks");
  // The process's parts, built as the app's composition root builds them.
  services = (await import("#server/composition")).createServices();
  grabber = countingFrames(services.streams);
  automation = await startWorker();
});
/** The job worker with the process's parts, as the composition root starts it (and again after a simulated crash). */
const startWorker = () =>
  tasks.startAutomation({
    connectionString: databaseUrl,
    concurrency: 4,
    ptz: services.ptz,
    frames: grabber,
    vision: services.vision,
    blobs: services.blobs,
    mailer: services.mailer,
  });

afterAll(async () => {
  await automation?.stop();
  await services?.ptz.stopAndCloseAll();
  await services?.streams.close();
  await (await import("#db/index")).closeDb();
  await Promise.all([fake?.close(), camera?.close(), receiver?.close()]);
});

let users = 0;
/** A user with their own Moondream key (the fake picks its failure mode from the key) and an IP camera. */
async function owner(apiKey: string | null) {
  const user = await db
    .insertInto("users")
    .values({ username: `mon${++users}_${Date.now()}`, username_key: `mon${users}_${Date.now()}`, password_hash: "x" })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (apiKey) await (await import("#server/vision/credentials")).saveApiKey(db, user.id, `${apiKey}-${user.id}`);
  const cameraId = await insertIpCamera(db, user.id, fakeCameraRow(camera, { name: "Lobby", snapshotUrl: camera.snapshotUrl(1) }));
  return { userId: user.id, cameraId, key: apiKey ? `${apiKey}-${user.id}` : SHARED_KEY };
}

const callsWith = (key: string) => fake.calls.filter((c) => c.key === key);
const row = (id: string) => db.selectFrom("monitors").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const autoPhotos = (userId: string) =>
  db.selectFrom("photos").select(["id", "auto_capture", "detection_query", "detection_boxes", "created_at", "width"]).where("user_id", "=", userId).orderBy("created_at").execute();

describe("monitors with no browser open", () => {
  it("auto-captures photos with their detection data, at most once per minimum gap, and sends their webhooks", async () => {
    const { userId, cameraId, key } = await owner("good");
    await (await import("#server/webhooks/settings")).saveWebhookSettings(db, userId, { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "detailed" });
    const monitor = await monitors.createMonitor(db, userId, { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 4 } });
    expect(monitor).toMatchObject({ state: "running", cameraName: "Lobby", name: "Auto-capture: person on Lobby" });

    const photos = await until(
      () => autoPhotos(userId),
      (list) => list.length >= 2,
      40_000,
    );
    for (const photo of photos) {
      expect(photo).toMatchObject({ auto_capture: true, detection_query: "person", width: 1280 });
      expect(photo.detection_boxes!.length).toBeGreaterThan(0);
    }
    // The minimum gap is measured between capture starts, as in the studio (a tick every 2 s finds boxes each time).
    expect(photos[1]!.created_at.getTime() - photos[0]!.created_at.getTime()).toBeGreaterThan(3_500);

    await receiver.waitFor((r) => r.accepted().filter((d) => d.payload.data.cameraId === cameraId).length >= 2, 30_000);
    const event = receiver.accepted().find((d) => d.payload.data.cameraId === cameraId)!;
    expect(event.payload.event).toBe("detection_details");
    expect(event.payload.data).toMatchObject({ object: "person", autoCapture: true });
    expect(Number(event.payload.data.boxCount)).toBeGreaterThan(0);

    const after = await row(monitor.id);
    expect(after.last_run_at).not.toBeNull();
    expect((after.last_result as { boxes: number }).boxes).toBeGreaterThan(0);
    expect(grabber.held.get(cameraId)).toBe(1); // one hold while it runs, however many ticks
    await monitors.deleteMonitor(db, userId, monitor.id);
    expect(grabber.held.get(cameraId)).toBe(0);
    // A monitor's calls are counted as "monitors" in the user's calls per hour: at least one per photo (a tick still
    // out when the monitor was deleted may be counted after this read, so at most the calls the provider got).
    const spent = await db.selectFrom("vision_call_hours").select(["feature", "calls"]).where("user_id", "=", userId).execute();
    expect(spent.map((r) => r.feature)).toEqual(["monitors"]);
    expect(spent[0]!.calls).toBeGreaterThanOrEqual(photos.length);
    expect(spent[0]!.calls).toBeLessThanOrEqual(callsWith(key).length);
  }, 90_000);

  it("keeps going across a restart of the app, even when its queued tick was lost", async () => {
    const { userId, cameraId } = await owner("good");
    const monitor = await monitors.createMonitor(db, userId, { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 0 } });
    await until(
      () => autoPhotos(userId),
      (list) => list.length >= 1,
      30_000,
    );
    await automation!.stop();
    // A crash can lose the job (or leave it locked for hours): the row alone must bring the monitor back.
    await sql`select graphile_worker.remove_job(${`monitor:${monitor.id}`})`.execute(db);
    const before = (await autoPhotos(userId)).length;
    automation = await startWorker();
    await until(
      () => autoPhotos(userId),
      (list) => list.length >= before + 2,
      30_000,
    );
    expect((await row(monitor.id)).state).toBe("running");
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 90_000);

  it("stops ticking while paused and runs again on resume", async () => {
    const paused = await owner("good");
    const control = await owner("good");
    const monitor = await monitors.createMonitor(db, paused.userId, { kind: "people_count", cameraId: paused.cameraId, settings: { intervalSeconds: 2, useRange: false } });
    const other = await monitors.createMonitor(db, control.userId, { kind: "people_count", cameraId: control.cameraId, settings: { intervalSeconds: 2, useRange: false } });
    await until(
      async () => callsWith(paused.key).length,
      (n) => n >= 1,
    );
    await monitors.pauseMonitor(db, paused.userId, monitor.id);
    // A tick under way finishes (its lease is let go); after that, nothing more.
    await until(
      () => row(monitor.id),
      (m) => m.lease_until === null,
    );
    const calls = callsWith(paused.key).length;
    const controlCalls = callsWith(control.key).length;
    await until(
      async () => callsWith(control.key).length,
      (n) => n >= controlCalls + 3,
    );
    expect(callsWith(paused.key).length).toBe(calls);
    expect(await row(monitor.id)).toMatchObject({ state: "paused", next_run_at: null });

    const resumed = await monitors.resumeMonitor(db, paused.userId, monitor.id);
    expect(resumed.state).toBe("running");
    await until(
      async () => callsWith(paused.key).length,
      (n) => n >= calls + 2,
    );
    // Counting went through the counting service: snapshots in the monitor's session.
    const snapshots = await db.selectFrom("count_snapshots").select("ai_count").where("session_id", "=", resumed.recordingId!).execute();
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    expect(snapshots[0]!.ai_count).toBeGreaterThan(0);
    await monitors.deleteMonitor(db, paused.userId, monitor.id);
    await monitors.deleteMonitor(db, control.userId, other.id);
    const session = await db.selectFrom("count_sessions").select("finished_at").where("id", "=", resumed.recordingId!).executeTakeFirstOrThrow();
    expect(session.finished_at).not.toBeNull();
  }, 90_000);

  it("never runs two ticks at once: a slow provider delays ticks and a duplicate job waits for the lease", async () => {
    const { userId, cameraId, key } = await owner("slow-2500");
    const monitor = await monitors.createMonitor(db, userId, { kind: "story", cameraId, settings: { intervalSeconds: 2 } });
    await until(
      async () => callsWith(key).length,
      (n) => n >= 1,
    );
    // While that call is at the provider, ask for a tick now (as a resume or a second process would).
    await monitors.resumeMonitor(db, userId, monitor.id);
    await until(
      async () => callsWith(key).length,
      (n) => n >= 4,
      40_000,
    );
    const arrivals = callsWith(key).map((c) => c.at);
    // Each answer takes 2.5 s: a call arriving sooner after the previous one would have overlapped it.
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(2_400);
    // Story captions went through the stories service, each with its photo.
    const captions = await db
      .selectFrom("story_captions")
      .select(["caption", "photo_id"])
      .where("story_id", "=", (await row(monitor.id)).recording_id!)
      .execute();
    expect(captions.length).toBeGreaterThan(0);
    expect(captions[0]!.photo_id).not.toBeNull();
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 90_000);

  it("keeps its tick's lease when the process's presence connection is replaced mid-tick: the process never takes its own tick over", async () => {
    const presence = await import("#server/cameras/stream/presence");
    presence.startCameraPresence(databaseUrl); // as server/app.ts does: leases now name this process's connection
    try {
      await expect.poll(() => presence.processIdentity()).not.toBeNull();
      const before = presence.processIdentity()!;
      const { userId, cameraId, key } = await owner("slow-12000");
      const monitor = await monitors.createMonitor(db, userId, { kind: "story", cameraId, settings: { intervalSeconds: 2 } });
      await expect.poll(() => callsWith(key).length, { timeout: 30_000 }).toBe(1);
      expect((await row(monitor.id)).lease_pid).toBe(before.pid);
      // A database hiccup drops the connection while the tick waits for the provider: a new backend replaces it.
      await sql`select pg_terminate_backend(${before.pid})`.execute(db);
      const leaseFollows = async () => {
        const now = presence.processIdentity();
        const m = await row(monitor.id);
        return { replaced: now !== null && now.pid !== before.pid, followed: m.lease_pid === now?.pid, ticking: m.lease_until !== null };
      };
      await expect.poll(leaseFollows, { timeout: 9_000 }).toEqual({ replaced: true, followed: true, ticking: true });
      // Its own takeover sweep (every 5 s) saw a live holder: the next call comes only after this one's answer.
      await expect.poll(() => callsWith(key).length, { timeout: 40_000 }).toBeGreaterThanOrEqual(2);
      const [first, second] = callsWith(key).map((c) => c.at);
      expect(second! - first!).toBeGreaterThanOrEqual(11_900);
      await monitors.deleteMonitor(db, userId, monitor.id);
    } finally {
      await presence.stopCameraPresence();
    }
  }, 90_000);

  it("runs no extra tick for a job that comes before the monitor is due (a stale or duplicate one): it books the due one", async () => {
    const { userId, cameraId, key } = await owner("good");
    const monitor = await monitors.createMonitor(db, userId, { kind: "people_count", cameraId, settings: { intervalSeconds: 3600, useRange: false } });
    await expect.poll(async () => (await row(monitor.id)).lease_until === null && (await row(monitor.id)).last_run_at !== null, { timeout: 30_000 }).toBe(true);
    const { next_run_at: due } = await row(monitor.id);
    const calls = callsWith(key).length;
    // A job for now (as a taken-over process's sweep may book beside a tick that ran meanwhile).
    await (await import("#server/monitors/schedule")).scheduleTick(db, monitor.id, new Date());
    const booked = async () =>
      (await sql<{ run_at: Date }>`select run_at from graphile_worker.jobs where key = ${`monitor:${monitor.id}`} and locked_at is null`.execute(db)).rows[0]?.run_at.getTime();
    await expect.poll(booked, { timeout: 20_000 }).toBe(due!.getTime());
    expect(callsWith(key).length).toBe(calls);
    expect((await row(monitor.id)).next_run_at).toEqual(due);
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 60_000);

  it("books the tick again at once when the process that ended the last one died before booking the next", async () => {
    const { userId, cameraId } = await owner("good");
    const monitor = await monitors.createMonitor(db, userId, { kind: "people_count", cameraId, settings: { intervalSeconds: 3600, useRange: false } });
    await expect.poll(async () => (await row(monitor.id)).lease_until === null && (await row(monitor.id)).last_run_at !== null, { timeout: 30_000 }).toBe(true);
    const ranAt = (await row(monitor.id)).last_run_at!;
    // Another process ended that tick and died before booking the next one: the row names it (its presence
    // connection, a backend that has ended) and its job stays locked, as graphile-worker leaves a dead worker's.
    const other = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const [{ pid }] = (await other`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    await sql`update monitors set next_run_at = now(), lease_pid = ${pid},
      lease_backend_start = (select backend_start from pg_stat_activity where pid = ${pid}) where id = ${monitor.id}`.execute(db);
    await other.end();
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(db)).rows[0]!.n).toBe(0);
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'worker-gone' where key = ${`monitor:${monitor.id}`}`.execute(db);
    // The sweep (at start-up, every minute, every few seconds with a presence connection) sees the job's holder gone.
    await (await import("#server/monitors/runner")).sweepMonitors(db);
    await expect.poll(async () => (await row(monitor.id)).last_run_at!.getTime(), { timeout: 20_000 }).toBeGreaterThan(ranAt.getTime());
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 60_000);

  it("books the tick again when its job used up its attempts (the task threw each time)", async () => {
    const { userId, cameraId } = await owner("good");
    const monitor = await monitors.createMonitor(db, userId, { kind: "people_count", cameraId, settings: { intervalSeconds: 3600, useRange: false } });
    await expect.poll(async () => (await row(monitor.id)).lease_until === null && (await row(monitor.id)).last_run_at !== null, { timeout: 30_000 }).toBe(true);
    const ranAt = (await row(monitor.id)).last_run_at!;
    await sql`update monitors set next_run_at = now() where id = ${monitor.id}`.execute(db);
    await sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'database unreachable' where key = ${`monitor:${monitor.id}`}`.execute(db);
    await (await import("#server/monitors/runner")).sweepMonitors(db);
    await expect.poll(async () => (await row(monitor.id)).last_run_at!.getTime(), { timeout: 20_000 }).toBeGreaterThan(ranAt.getTime());
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 60_000);

  it("backs off with growing delays while the provider fails, then recovers to running", async () => {
    const { userId, cameraId, key } = await owner("flaky-500-2");
    const monitor = await monitors.createMonitor(db, userId, { kind: "auto_capture", cameraId, settings: { query: "person", intervalSeconds: 2, minGapSeconds: 0 } });
    const failed = await until(
      () => row(monitor.id),
      (m) => m.state === "error",
    );
    expect(failed.failures).toBe(1);
    expect(failed.last_error).toMatch(/unavailable/i);
    expect(failed.status_message).toMatch(/retrying in \d+ s/);
    // The failed tick is on the timeline with the monitor's message, its name and camera.
    const errors = await db.selectFrom("timeline_events").selectAll().where("user_id", "=", userId).where("type", "=", "monitor.error").execute();
    expect(errors[0]).toMatchObject({ camera_id: cameraId, camera_name: "Lobby", target_name: monitor.name, description: failed.status_message });
    expect(grabber.held.get(cameraId)).toBe(0); // a failing monitor does not keep the camera's stream pulled
    const recovered = await until(
      () => row(monitor.id),
      (m) => m.state === "running" && m.last_result !== null,
      40_000,
    );
    expect(recovered.failures).toBe(0);
    expect(recovered.status_message).toBeNull();
    // Its photo is on the timeline as an auto-capture.
    const captured = await db.selectFrom("timeline_events").select(["label", "photo_id"]).where("user_id", "=", userId).where("type", "=", "photo.auto_captured").execute();
    expect(captured[0]).toMatchObject({ label: "person", photo_id: (recovered.last_result as { photoId: string }).photoId });
    const at = callsWith(key).map((c) => c.at);
    expect(at.length).toBeGreaterThanOrEqual(3);
    // 2 s interval: 4 s after the first failure, 8 s after the second.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(3_900);
    expect(at[2]! - at[1]!).toBeGreaterThan(at[1]! - at[0]!);
    await monitors.deleteMonitor(db, userId, monitor.id);
  }, 90_000);

  it("stops with a clear message when the free calls are used up or the key is rejected, until resumed", async () => {
    const shared = await owner(null);
    await db.updateTable("users").set({ shared_key_calls_used: 100 }).where("id", "=", shared.userId).execute();
    const quota = await monitors.createMonitor(db, shared.userId, { kind: "story", cameraId: shared.cameraId, settings: { intervalSeconds: 2 } });
    const stopped = await until(
      () => row(quota.id),
      (m) => m.state === "stopped",
    );
    expect(stopped.status_message).toMatch(/free calls are used up.*Then resume this monitor/);
    expect(stopped.next_run_at).toBeNull();

    const rejected = await owner("invalid");
    const keyed = await monitors.createMonitor(db, rejected.userId, { kind: "people_count", cameraId: rejected.cameraId, settings: { intervalSeconds: 2, useRange: false } });
    const stoppedKey = await until(
      () => row(keyed.id),
      (m) => m.state === "stopped",
    );
    expect(stoppedKey.status_message).toMatch(/rejected your API key/);
    expect(callsWith(rejected.key)).toHaveLength(1); // it did not keep trying a key that cannot work

    // The person fixes it (here: more free calls) and resumes.
    await db.updateTable("users").set({ shared_key_calls_used: 0 }).where("id", "=", shared.userId).execute();
    await monitors.resumeMonitor(db, shared.userId, quota.id);
    await until(
      () => row(quota.id),
      (m) => m.state === "running" && m.last_result !== null,
    );
    await monitors.deleteMonitor(db, shared.userId, quota.id);
    await monitors.deleteMonitor(db, rejected.userId, keyed.id);
  }, 90_000);
});
