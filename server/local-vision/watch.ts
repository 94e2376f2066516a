// "Watch with local vision" (issue 30): the per-IP-camera switch that has the server run the local detector, the
// tracker and the camera's lines and zones all day (./pipeline/), and what the process running it last measured.
import type { DB } from "#db/index";
import { DEFAULT_FOLLOW, DEFAULT_WATCH_LABELS, WATCH_FPS, WATCH_WIDTH, type FollowInput, type PipelineStats, type Watch, type WatchInput } from "#app/schemas/watch";
import { findCamera } from "../cameras/queries";
import { notFound, ProblemError } from "../errors";
import { getLocalDetector } from "../local-detector/service";
import { announceFollowPaused } from "./follow-pause";
import { listZones } from "./service";
import * as q from "./queries";

/** Figures older than this mean no live process runs the pipeline now (it writes them every few seconds). */
export const STATS_FRESH_MS = 15_000;

type WatchRow = NonNullable<Awaited<ReturnType<typeof q.findWatch>>>;

export const DEFAULT_WATCH: Required<WatchInput> = {
  enabled: false,
  labels: [...DEFAULT_WATCH_LABELS],
  fps: WATCH_FPS.default,
  width: WATCH_WIDTH.default,
  follow: DEFAULT_FOLLOW,
};

function toWatch(row: WatchRow | undefined, now = Date.now()): Watch {
  if (!row) return { ...DEFAULT_WATCH, follow: { ...DEFAULT_FOLLOW, pausedAt: null }, status: "off", stats: null, statsAt: null, lastEventAt: null };
  const fresh = row.enabled && row.stats && row.stats_at && now - row.stats_at.getTime() < STATS_FRESH_MS ? (row.stats as PipelineStats) : null;
  return {
    enabled: row.enabled,
    labels: row.labels,
    fps: row.fps,
    width: row.width,
    follow: { ...DEFAULT_FOLLOW, ...row.follow, pausedAt: row.follow?.enabled && row.follow_paused_at ? row.follow_paused_at.toISOString() : null },
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
  if (input.follow) await checkFollow(db, userId, cameraId, camera.ptz_protocol, labels, input.follow);
  const row = await q.upsertWatch(db, { camera_id: cameraId, user_id: userId, enabled: input.enabled, labels, fps: input.fps, width: input.width, follow: input.follow });
  return toWatch(row);
}

/** A follow switched on needs PTZ, a class the pipeline tracks, and (to start in a zone) one of the camera's zones. */
async function checkFollow(db: DB, userId: string, cameraId: string, ptzProtocol: string | null, labels: string[], follow: FollowInput): Promise<void> {
  if (!follow.enabled) return;
  const fail = (field: string, message: string) => new ProblemError(422, message, { errors: { [`follow.${field}`]: [message] } });
  if (!ptzProtocol) throw fail("enabled", "This camera has no PTZ control: the server can only follow with a PTZ camera");
  if (!labels.includes(follow.label)) throw fail("label", `The server follows what it watches for: add "${follow.label}" to the classes watched`);
  if (follow.startZoneId && !(await listZones(db, userId, cameraId)).some((zone) => zone.id === follow.startZoneId)) {
    throw fail("startZoneId", "That zone is not one of this camera's");
  }
}

/**
 * A manual PTZ command (the studio's joystick, a preset, a move: any process's PTZ routes) on a camera the server
 * follows with: the follow pauses, and the process following stops driving the camera within a moment (./follow-pause.ts).
 */
export async function pauseFollowByHand(db: DB, userId: string, cameraId: string): Promise<void> {
  if (await q.pauseFollow(db, userId, cameraId)) await announceFollowPaused(db, cameraId);
}
