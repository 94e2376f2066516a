// "Watch with local vision" (issue 30): the per-IP-camera switch that has the server run the local detector, the
// tracker and the camera's lines and zones all day (./pipeline/), and what the process running it last measured.
import type { DB } from "#db/index";
import { DEFAULT_WATCH_LABELS, WATCH_FPS, WATCH_WIDTH, type PipelineStats, type Watch, type WatchInput } from "#app/schemas/watch";
import { findCamera } from "../cameras/queries";
import { notFound, ProblemError } from "../errors";
import { getLocalDetector } from "../local-detector/service";
import * as q from "./queries";

/** Figures older than this mean no live process runs the pipeline now (it writes them every few seconds). */
export const STATS_FRESH_MS = 15_000;

type WatchRow = NonNullable<Awaited<ReturnType<typeof q.findWatch>>>;

export const DEFAULT_WATCH: WatchInput = { enabled: false, labels: [...DEFAULT_WATCH_LABELS], fps: WATCH_FPS.default, width: WATCH_WIDTH.default };

function toWatch(row: WatchRow | undefined, now = Date.now()): Watch {
  if (!row) return { ...DEFAULT_WATCH, status: "off", stats: null, statsAt: null, lastEventAt: null };
  const fresh = row.enabled && row.stats && row.stats_at && now - row.stats_at.getTime() < STATS_FRESH_MS ? (row.stats as PipelineStats) : null;
  return {
    enabled: row.enabled,
    labels: row.labels,
    fps: row.fps,
    width: row.width,
    status: !row.enabled ? "off" : fresh ? fresh.state : "waiting",
    stats: fresh,
    statsAt: fresh ? row.stats_at!.toISOString() : null,
    lastEventAt: row.last_event_at?.toISOString() ?? null,
  };
}

async function requireIpCamera(db: DB, userId: string, cameraId: string) {
  const camera = await findCamera(db, userId, cameraId);
  if (!camera) throw notFound("Camera");
  return camera;
}

export async function getWatch(db: DB, userId: string, cameraId: string): Promise<Watch> {
  await requireIpCamera(db, userId, cameraId);
  return toWatch(await q.findWatch(db, userId, cameraId));
}

export async function setWatch(db: DB, userId: string, cameraId: string, input: WatchInput): Promise<Watch> {
  const camera = await requireIpCamera(db, userId, cameraId);
  if (camera.source !== "ip") {
    const message = "Only an IP camera can be watched by the server: a webcam's local vision runs in the studio";
    throw new ProblemError(422, message, { errors: { enabled: [message] } });
  }
  const labels = [...new Set(input.labels)];
  const detector = await getLocalDetector(db);
  const unknown = labels.filter((label) => !detector.labels.includes(label));
  if (unknown.length > 0) {
    const message = `The detector (${detector.name}) does not know ${unknown.map((label) => `"${label}"`).join(", ")}`;
    throw new ProblemError(422, message, { errors: { labels: [message] } });
  }
  const row = await q.upsertWatch(db, { camera_id: cameraId, user_id: userId, enabled: input.enabled, labels, fps: input.fps, width: input.width });
  return toWatch(row);
}
