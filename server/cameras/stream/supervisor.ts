// Every camera stream of this app process, by camera id: at most one ffmpeg per camera however many viewers and
// monitors use it (none when another process owns the camera: its relay instead), status changes written to
// cameras.status, snapshots, and all of it stopped on shutdown.
import { db as appDb, type DB } from "#db/index";
import { config } from "../../config";
import { logger } from "../../logger";
import * as q from "../queries";
import { ProblemError } from "../../errors";
import { loadCameraSource, type CameraSource } from "../source";
import { CAMERA_CHANGED, CameraStream, type StreamSettings } from "./camera-stream";
import { ffmpegBinary } from "./ffmpeg-binary";
import { cameraOwner, claimCamera, markStopped, markStreaming, releaseCamera } from "./presence";
import { snapshotFromOwner } from "./relay";
import { announceCameraChanged } from "./changes";
import { takeSnapshot, type Snapshot } from "./snapshot";
import { DEFAULT_VIEWER_LIMITS } from "./viewer";
import type { LiveStreams } from "./live-streams";

export type { LiveStreams } from "./live-streams";

export interface SupervisorOptions extends Partial<Omit<StreamSettings, "onStatus">> {
  /** The database status changes are written to (default: the app's). */
  db?: () => DB;
  snapshotTimeoutMs?: number;
}

export function createLiveStreams(options: SupervisorOptions = {}): LiveStreams {
  const streams = new Map<string, CameraStream>();
  const snapshots = new Map<string, Promise<Snapshot>>();
  const database = options.db ?? appDb;
  const settings: StreamSettings = {
    idleMs: options.idleMs ?? config().ffmpeg.streamIdleMs,
    backoff: options.backoff ?? { firstMs: 1_000, maxMs: 30_000 },
    timeoutMs: options.timeoutMs ?? 10_000,
    viewerLimits: options.viewerLimits ?? DEFAULT_VIEWER_LIMITS,
    binary: options.binary ?? ffmpegBinary,
    claim: claimCamera,
    release: (cameraId) => void releaseCamera(cameraId),
    changed: (stream) => streams.get(stream.source.cameraId) === stream && streams.delete(stream.source.cameraId),
    onStatus: (cameraId, status) => {
      // Other processes may pull the same camera (server/cameras/stream/presence.ts): they learn this one's pull
      // ended before its "offline" is written, and an idle stop's "offline" leaves their status standing. Writes
      // wait for the presence change, so they go out in the order the stream changed.
      const presence = status.status === "offline" ? markStopped(cameraId) : markStreaming(cameraId);
      void presence
        .then(() => q.setCameraStatus(database(), cameraId, status.status, status.reason, status.status === "offline" && status.reason === null))
        .catch((error: unknown) => logger.warn({ err: error, cameraId }, "could not save a camera's stream status"));
    },
  };
  let closing = false;

  const streamOf = (source: CameraSource) => {
    let stream = streams.get(source.cameraId);
    if (stream && !sameAddress(stream.source, source)) {
      // A change this process was not told of (a missed notification): the old pull goes, as forget() does.
      streams.delete(source.cameraId);
      void stream.close(CAMERA_CHANGED, "camera changed");
      stream = undefined;
    }
    if (!stream) {
      stream = new CameraStream(source, settings);
      streams.set(source.cameraId, stream);
    } else stream.source = source; // the freshest row, with the same address and login
    return stream;
  };

  return {
    watch(source, sink) {
      if (closing) throw new Error("shutting down");
      const stream = streamOf(source);
      const viewer = stream.watch(sink);
      return { viewer, leave: () => stream.leave(viewer) };
    },
    hold(source) {
      if (closing) return () => {};
      return streamOf(source).hold();
    },
    snapshot(source, { here = false } = {}) {
      // Concurrent captures of one camera share one request or decode.
      let pending = snapshots.get(source.cameraId);
      if (!pending) {
        const timeoutMs = options.snapshotTimeoutMs ?? 10_000;
        pending = (async () => {
          // The owner's captures share its kept frames and its one request at a time, for every process.
          const owner = here ? null : await cameraOwner(source.cameraId);
          const owners = owner ? await snapshotFromOwner(owner, source.userId, source.cameraId, timeoutMs + 2_000) : null;
          if (owners) return owners;
          // A camera without a sub-stream is viewed on its main stream: a running, unchanged pull already holds
          // full-size frames, and one starting (a takeover, a restart) soon will: waiting for it keeps the camera
          // at one session, where a pull of our own would be a second.
          const kept = source.snapshotUrl || source.mainUrl ? null : await streams.get(source.cameraId)?.nextGop(timeoutMs);
          const running = kept && !kept.transcoded ? kept : null;
          return takeSnapshot(source, await (settings.binary ?? ffmpegBinary)(), timeoutMs, running);
        })();
        snapshots.set(source.cameraId, pending);
        const done = pending;
        void done.finally(() => snapshots.get(source.cameraId) === done && snapshots.delete(source.cameraId)).catch(() => {});
      }
      return pending;
    },
    async forget(cameraId, { here = false } = {}) {
      const stream = streams.get(cameraId);
      if (stream) {
        streams.delete(cameraId);
        await stream.close(CAMERA_CHANGED, "camera changed");
      }
      if (!here) await announceCameraChanged(database(), cameraId);
    },
    async resync() {
      for (const [cameraId, stream] of [...streams]) {
        const stored = await loadCameraSource(database(), stream.source.userId, cameraId).catch((error: unknown) => {
          if (error instanceof ProblemError && error.status === 404) return null;
          throw error;
        });
        if (streams.get(cameraId) === stream && !(stored && sameAddress(stored, stream.source))) await this.forget(cameraId, { here: true });
      }
    },
    status: (cameraId) => streams.get(cameraId)?.status ?? null,
    ownershipLost: (cameraId) => streams.get(cameraId)?.ownershipLost(),
    starts: (cameraId) => streams.get(cameraId)?.starts ?? 0,
    async close() {
      closing = true;
      await Promise.all([...streams.values()].map((stream) => stream.close(1001, "server shutting down")));
      streams.clear();
    },
  };
}

/** Whether two rows of a camera pull the same thing the same way (anything else is a change: a new pull). */
function sameAddress(a: CameraSource, b: CameraSource): boolean {
  return (
    a.viewUrl === b.viewUrl &&
    a.mainUrl === b.mainUrl &&
    a.snapshotUrl === b.snapshotUrl &&
    a.codec === b.codec &&
    a.credentials?.username === b.credentials?.username &&
    a.credentials?.password === b.credentials?.password
  );
}
