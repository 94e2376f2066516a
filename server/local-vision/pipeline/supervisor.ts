// Which watched cameras' pipelines run in this process (issue 30). Every process looks at the watched cameras every
// couple of seconds and takes each one no live process runs, under an advisory lock on its presence connection
// (server/cameras/stream/presence.ts, as a camera's owner is chosen: decision 0008). The lock goes with the process,
// however it dies, so a killed process's cameras run in a survivor at its next look (docs/decisions/0016-pipeline-lock.md).
// A changed setting restarts the camera's pipeline; switched off or deleted, it stops; the detector pool (one per
// process, its threads shared fairly by every camera here) starts with the first pipeline and follows the
// administrator's choice of model.
import { claimPipeline, onPipelineLost, releasePipeline } from "../../cameras/stream/presence";
import { listenForFollowPauses } from "../follow-pause";
import { listEnabledWatches, writeWatchStats } from "../queries";
import { startCameraPipeline, type PipelineParts, type RunningPipeline, type WatchSettings } from "./camera-pipeline";
import { ServerFollow, type FollowCamera } from "./follow";
import type { DetectorPool } from "./types";

/** How often each process looks for watched cameras nobody runs (a dead process's cameras move within about this). */
export const SWEEP_MS = 2_000;
/** A pipeline that ended by itself (its camera could not be read) is not started again before this. */
export const RESTART_AFTER_MS = 30_000;
/** How often a running pipeline's figures are written for the camera card and /metrics. */
export const STATS_EVERY_MS = 5_000;

export interface SupervisorParts<Pool extends DetectorPool> extends Omit<PipelineParts, "pool"> {
  /** The process's detector pool, made when the first pipeline starts here. */
  createPool: () => Promise<Pool>;
  /** The active detector's identity: a change reloads the pool's model. */
  detectorVersion: () => Promise<string>;
  /** Makes the pool run the active detector's model now. */
  reloadPool: (pool: Pool) => Promise<void>;
  /** A watched PTZ camera as its follow drives it (the process's PtzService with the camera's stored connection). */
  followCamera: (userId: string, cameraId: string) => Promise<FollowCamera>;
  sweepMs?: number;
}

export interface WatchSupervisor {
  /** The pipelines running in this process, by camera id. */
  running(): ReadonlyMap<string, RunningPipeline>;
  /** Looks now rather than at the next sweep (a setting changed in this process). */
  poke(): void;
  close(): Promise<void>;
}

interface Entry {
  pipeline: RunningPipeline;
  version: string;
  /** The camera's PTZ follow, while on and not paused by a manual move. */
  follow: { follower: ServerFollow; off: () => void } | null;
}

type WatchRow = Awaited<ReturnType<typeof listEnabledWatches>>[number];

export function startWatchSupervisor<Pool extends DetectorPool>(parts: SupervisorParts<Pool>): WatchSupervisor {
  const { db, log } = parts;
  const running = new Map<string, Entry>();
  let pool: Pool | null = null;
  let poolVersion: string | null = null;
  let closed = false;
  let sweeping: Promise<void> = Promise.resolve();
  let lastStats = 0;
  /** Cameras whose pipeline ended by itself, and when they may start again. */
  const restartAt = new Map<string, number>();

  const settingsVersion = (row: { fps: number; width: number; labels: string[]; updated_at: Date; name: string }) =>
    `${row.updated_at.getTime()} ${row.fps} ${row.width} ${row.labels.join(",")} ${row.name}`;

  /** When a manual move last paused each camera's follow here: a sweep that read its rows before that must not resume it. */
  const pausedAt = new Map<string, number>();

  async function endFollow(entry: Entry, stopCamera: boolean): Promise<void> {
    const follow = entry.follow;
    if (!follow) return;
    entry.follow = null;
    follow.off();
    await follow.follower.end(stopCamera);
  }

  /** Starts, reconfigures or ends the camera's follow as its row says. */
  async function applyFollow(entry: Entry, row: WatchRow, readAt: number): Promise<void> {
    const setting = row.follow;
    const wanted = setting?.enabled && row.ptz_protocol && !row.follow_paused_at && (pausedAt.get(row.camera_id) ?? 0) < readAt;
    if (!setting || !wanted) return endFollow(entry, !row.follow_paused_at);
    if (entry.follow) return entry.follow.follower.configure(setting);
    const camera = await parts.followCamera(row.user_id, row.camera_id);
    if (entry.follow || running.get(row.camera_id) !== entry || (pausedAt.get(row.camera_id) ?? 0) >= readAt) return;
    const follower = new ServerFollow(setting, camera, log.child({ cameraId: row.camera_id }));
    entry.follow = { follower, off: entry.pipeline.onScene((scene) => follower.onScene(scene)) };
    log.info({ cameraId: row.camera_id, label: setting.label, startZoneId: setting.startZoneId }, "PTZ follow started on the server");
  }

  async function stop(cameraId: string, release: boolean): Promise<void> {
    const entry = running.get(cameraId);
    if (!entry) return;
    running.delete(cameraId);
    await endFollow(entry, true);
    await entry.pipeline.close();
    if (release) await releasePipeline(cameraId);
  }

  async function ensurePool(): Promise<Pool> {
    const version = await parts.detectorVersion();
    if (!pool) {
      pool = await parts.createPool();
      poolVersion = version;
    } else if (version !== poolVersion) {
      poolVersion = version;
      log.info({ detector: version }, "the deployment's detector changed: the pipelines' detector threads load it");
      await parts.reloadPool(pool);
    }
    return pool;
  }

  async function sweep(): Promise<void> {
    const readAt = Date.now();
    const rows = await listEnabledWatches(db);
    const wanted = new Map(rows.map((row) => [row.camera_id, row]));
    for (const [cameraId, entry] of running) {
      const row = wanted.get(cameraId);
      if (!row) await stop(cameraId, true);
      else if (settingsVersion(row) !== entry.version) await stop(cameraId, false); // started again below, lock kept
    }
    const toStart = rows.filter((row) => !running.has(row.camera_id) && (restartAt.get(row.camera_id) ?? 0) <= Date.now());
    if (toStart.length > 0 || pool) await ensurePool();
    for (const row of toStart) {
      if (closed) return;
      if (!(await claimPipeline(row.camera_id))) continue;
      const settings: WatchSettings = { cameraId: row.camera_id, userId: row.user_id, cameraName: row.name, labels: row.labels, fps: row.fps, width: row.width };
      const pipeline = startCameraPipeline(settings, { ...parts, pool: pool! });
      running.set(row.camera_id, { pipeline, version: settingsVersion(row), follow: null });
      // A pipeline whose source ended for good (the camera gone) lets the camera go; the next sweep decides again.
      void pipeline.done.then(async () => {
        if (running.get(row.camera_id)?.pipeline !== pipeline) return;
        restartAt.set(row.camera_id, Date.now() + RESTART_AFTER_MS);
        await stop(row.camera_id, true);
      });
    }
    for (const row of rows) {
      const entry = running.get(row.camera_id);
      if (entry) await applyFollow(entry, row, readAt).catch((error: unknown) => log.warn({ err: error, cameraId: row.camera_id }, "could not start the camera's PTZ follow"));
    }
    const now = Date.now();
    if (now - lastStats >= STATS_EVERY_MS) {
      lastStats = now;
      await Promise.all([...running].map(([cameraId, entry]) => writeWatchStats(db, cameraId, entry.pipeline.stats(now))));
    }
  }

  function look(): void {
    sweeping = sweeping.then(async () => {
      if (closed) return;
      await sweep().catch((error: unknown) => log.warn({ err: error }, "could not look for watched cameras; looking again shortly"));
    });
  }

  const lostOff = onPipelineLost((cameraId) => {
    log.warn({ cameraId }, "another process took this camera's local-vision pipeline while the database connection was down; stopped here");
    void stop(cameraId, false);
  });
  // A manual PTZ command in any process: the follow stops driving the camera now (the person has it), not at the next sweep.
  const pausesOff = listenForFollowPauses((cameraId) => {
    pausedAt.set(cameraId, Date.now());
    const entry = running.get(cameraId);
    if (!entry?.follow) return;
    log.info({ cameraId }, "PTZ follow paused by a manual move");
    void endFollow(entry, false);
  });
  const timer = setInterval(look, parts.sweepMs ?? SWEEP_MS);
  timer.unref();
  look();

  return {
    running: () => new Map([...running].map(([id, entry]) => [id, entry.pipeline])),
    poke: look,
    async close() {
      closed = true;
      clearInterval(timer);
      lostOff();
      pausesOff();
      await sweeping;
      await Promise.all([...running.keys()].map((cameraId) => stop(cameraId, true)));
      await pool?.close();
    },
  };
}
