// One monitor tick, run by the job queue: take the monitor's lease, grab a frame from its IP camera, make the
// same AI call and save the same result as the studio would (through the vision, photos, counting and stories
// services, so quotas, pacing, webhooks and alert rules apply unchanged), then book the next tick. The next
// tick is booked only when this one ends, at max(now, this start + interval): a slow provider delays ticks
// and never stacks them. Failures back off; a quota or key that ran out stops the monitor with a message.
import { VISION_PROBLEM, type CaptionRequest, type CountRequest, type DetectRequest } from "#app/schemas/vision";
import type { AutoCaptureSettings, MonitorResult, PeopleCountSettings } from "#app/schemas/monitors";
import type { DB } from "#db/index";
import type { MonitorState } from "#db/schema";
import { ownerSession } from "../accounts/service";
import type { Session } from "../accounts/sessions";
import { loadCameraSource, type CameraSource } from "../cameras/source";
import { processIdentity } from "../cameras/stream/presence";
import { config } from "../config";
import { countPeople } from "../counting/count";
import { getSession } from "../counting/service";
import { ProblemError } from "../errors";
import { cameraFrame, type Frame } from "../images/frame";
import { logger } from "../logger";
import { createPhoto } from "../photos/service";
import { addCaption, getStory } from "../stories/service";
import { recordMonitorError, recordMonitorResult, type MonitorRef } from "../timeline/record";
import type { BlobStore } from "../storage/blob-store";
import { caption, detect, type FrameCall, type Vision } from "../vision/service";
import type { MonitorFrames } from "./frames";
import { holdFor, releaseHold } from "./holds";
import * as q from "./queries";
import { scheduleTick, scheduleTickIfNone } from "./schedule";
import { startRecording } from "./service";

/** How long a frame may take to come (a camera that just came back needs its first keyframe). */
const GRAB_TIMEOUT_MS = 15_000;
/** Backoff after failures: the interval (at least this) doubled per failure in a row, up to the cap. */
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_CAP_MS = 15 * 60_000;
/** How long a hold outlives a tick beyond the monitor's interval. */
const HOLD_GRACE_MS = 60_000;
/**
 * Monitors ticking at most this far apart keep their camera's stream pulled between ticks (each snapshot then
 * comes from a warm stream); slower ones let it stop and start it again for each tick, as does a failing one.
 */
const HOLD_MAX_INTERVAL_MS = 120_000;

/** The longest a tick may run: the grab, the provider call with its retries, and saving. */
export function tickDeadlineMs(): number {
  const { timeoutMs, maxRetries } = config().moondream;
  return GRAB_TIMEOUT_MS + timeoutMs * (maxRetries + 1) + 30_000;
}
/** The lease outlives the deadline, so a tick that is still running never loses it. */
export const leaseMs = () => tickDeadlineMs() + 30_000;

interface Outcome {
  state: MonitorState;
  result?: MonitorResult;
  error?: string;
  statusMessage?: string | null;
  /** When the next tick runs; null: none (stopped). */
  next: Date | null;
  /** Whether this tick counts as a failure (error state) or resets the count (success). */
  failed?: boolean;
  succeeded?: boolean;
}

/** What a tick works with, built by the composition root: the camera frames, the vision client, the blob store. */
export interface TickParts {
  frames: MonitorFrames;
  vision: Vision;
  blobs: BlobStore;
}

/** The monitor_tick task. Never throws for a tick's own failure: the outcome is written to the row instead. */
export async function runTick(db: DB, parts: TickParts, monitorId: string, shutdown?: AbortSignal): Promise<void> {
  const row = await q.claimTick(db, monitorId, leaseMs(), processIdentity());
  if (!row) {
    // Gone, paused or stopped: nothing to do. Held by a live tick: look again when its lease lapses (that tick books
    // the next one itself when it ends, which replaces this look). Not due yet (a stale or duplicate job): make sure
    // the booked tick has its job.
    const now = await q.tickState(db, monitorId);
    if (!now || (now.state !== "running" && now.state !== "error")) return;
    const at = [now.lease_until, now.next_run_at].find((time) => time && time > new Date());
    if (at) await scheduleTickIfNone(db, monitorId, at);
    return;
  }
  const startedAt = Date.now();
  const settings = row.settings as { intervalSeconds: number };
  const intervalMs = settings.intervalSeconds * 1000;
  const deadline = AbortSignal.timeout(tickDeadlineMs());
  const signal = shutdown ? AbortSignal.any([shutdown, deadline]) : deadline;
  let outcome: Outcome;
  try {
    const source = await loadCameraSource(db, row.user_id, row.camera_id).catch((error: unknown) => {
      throw error instanceof ProblemError && error.status === 404 ? new StopMonitor("The camera is no longer an IP camera; delete this monitor or choose another camera") : error;
    });
    const frame = await grab(parts.frames, source, signal);
    if (intervalMs <= HOLD_MAX_INTERVAL_MS) holdFor(parts.frames, row.id, source, intervalMs + HOLD_GRACE_MS);
    const result = await act(db, parts, row, frame, await monitorOwner(db, row.user_id), signal);
    outcome = { state: "running", result, statusMessage: null, succeeded: true, next: new Date(Math.max(Date.now(), startedAt + intervalMs)) };
  } catch (error) {
    if (shutdown?.aborted) {
      // The app is stopping: this tick did nothing; the next process to start runs it again at once.
      await q.releaseLease(db, row.id);
      await scheduleTick(db, row.id, new Date());
      return;
    }
    outcome = failure(row, error, intervalMs);
    releaseHold(row.id);
  }
  await recordOnTimeline(db, row, outcome);
  const written = await q.finishTick(db, row.id, {
    state: outcome.state,
    status_message: outcome.statusMessage ?? null,
    last_run_at: new Date(startedAt),
    ...(outcome.result ? { last_result: outcome.result } : {}),
    ...(outcome.error ? { last_error: outcome.error } : {}),
    ...(outcome.failed ? { failures: row.failures + 1 } : outcome.succeeded ? { failures: 0 } : {}),
    next_run_at: outcome.next,
  });
  if (written && (written.state === "running" || written.state === "error") && written.next_run_at) await scheduleTick(db, row.id, written.next_run_at);
  else releaseHold(row.id);
}

const monitorRef = (row: q.MonitorRow): MonitorRef => ({ id: row.id, userId: row.user_id, name: row.name, kind: row.kind, cameraId: row.camera_id, cameraName: row.camera_name });

/**
 * The tick on the events timeline: an error with the monitor's message, a people count when it changed (a story's
 * caption is recorded with its photo by act; an auto-capture's photo by the photo's own event). The timeline is a
 * record of the tick, not its state: failing to write it is logged and the tick goes on.
 */
async function recordOnTimeline(db: DB, row: q.MonitorRow, outcome: Outcome): Promise<void> {
  try {
    if (outcome.failed) await recordMonitorError(db, monitorRef(row), outcome.statusMessage ?? outcome.error ?? "The monitor failed");
    const count = outcome.result && "count" in outcome.result ? outcome.result.count : undefined;
    const before = (row.last_result as { count?: number } | null)?.count;
    if (row.kind === "people_count" && count !== undefined && count !== before)
      await recordMonitorResult(db, monitorRef(row), { description: `${count} ${count === 1 ? "person" : "people"}`, label: "person", detail: { count } });
  } catch (error) {
    logger.warn({ err: error, monitorId: row.id }, "could not record a monitor's tick on the timeline");
  }
}

/** A failure that needs the person (quota, key, camera): the monitor stops with this message until resumed. */
class StopMonitor extends Error {}

function failure(row: q.MonitorRow, error: unknown, intervalMs: number): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StopMonitor) return { state: "stopped", statusMessage: error.message, error: message, next: null, failed: true };
  if (error instanceof ProblemError) {
    const type = error.init.type;
    const retryAfterMs = retryAfter(error);
    // The key's pace queue is busy (loops yield to people): not a failure, just a later tick.
    if (type === VISION_PROBLEM.busy) return { state: row.state, statusMessage: row.status_message, next: new Date(Date.now() + Math.max(1000, retryAfterMs ?? 1000)) };
    if (error.status === 402 || type === VISION_PROBLEM.noApiKey || type === VISION_PROBLEM.keyRejected || (error.status === 400 && !error.init.errors)) {
      return { state: "stopped", statusMessage: `${error.message} Then resume this monitor.`, error: message, next: null, failed: true };
    }
    // The shared key's daily pool is spent: it refills at 00:00 UTC, when the monitor tries again by itself.
    if (type === VISION_PROBLEM.freePoolUsedUp) {
      return { state: "error", statusMessage: error.message, error: message, next: new Date(Date.now() + (retryAfterMs ?? 3_600_000)), failed: true };
    }
    const wait = Math.max(backoff(row.failures + 1, intervalMs), retryAfterMs ?? 0);
    return { state: "error", statusMessage: `${message} (retrying in ${Math.round(wait / 1000)} s)`, error: message, next: new Date(Date.now() + wait), failed: true };
  }
  logger.warn({ err: error, monitorId: row.id }, "monitor tick failed");
  const wait = backoff(row.failures + 1, intervalMs);
  return { state: "error", statusMessage: `${message} (retrying in ${Math.round(wait / 1000)} s)`, error: message, next: new Date(Date.now() + wait), failed: true };
}

/** The growing delay after `failures` failed ticks in a row. */
export function backoff(failures: number, intervalMs: number): number {
  return Math.min(BACKOFF_CAP_MS, Math.max(intervalMs, BACKOFF_BASE_MS) * 2 ** Math.min(failures, 20));
}

function retryAfter(error: ProblemError): number | undefined {
  const value = new Headers(error.init.headers).get("Retry-After");
  const seconds = value ? Number(value) : NaN;
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

async function grab(frames: MonitorFrames, source: CameraSource, signal: AbortSignal): Promise<Frame> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The camera sent no picture within ${GRAB_TIMEOUT_MS / 1000} s`)), GRAB_TIMEOUT_MS);
    signal.addEventListener("abort", () => reject(new Error("The tick was cancelled")), { once: true });
  });
  try {
    return cameraFrame(await Promise.race([frames.snapshot(source), timeout]));
  } catch (error) {
    throw new Error(`Camera: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** The AI calls are made as the monitor's owner, with their stored key, as if they had asked in the studio. */
async function monitorOwner(db: DB, userId: string): Promise<Session> {
  const session = await ownerSession(db, userId);
  if (!session) throw new StopMonitor("The monitor's owner is gone");
  return session;
}

/** A monitor's AI call on the camera's frame, as its owner; counted as "monitors", whatever the operation (see server/vision/usage.ts). */
function frameCall<T>(session: Session, frame: Frame, input: FrameCall<T>["input"]): FrameCall<T> {
  return { session, input, frame, feature: "monitors" };
}

async function act(db: DB, { vision, blobs }: TickParts, row: q.MonitorRow, frame: Frame, session: Session, signal: AbortSignal): Promise<MonitorResult> {
  const userId = row.user_id;
  switch (row.kind) {
    case "auto_capture": {
      const settings = row.settings as AutoCaptureSettings;
      const call = frameCall<DetectRequest>(session, frame, { object: settings.query, maxObjects: 10, confidenceThreshold: 0.3, priority: "loop" });
      const { boxes } = await detect(db, vision, call, signal);
      // The studio's rule: a result with at least one box saves a photo, at most once per minimum gap.
      if (boxes.length === 0 || !(await q.claimSave(db, row.id, settings.minGapSeconds))) return { boxes: boxes.length, photoId: null };
      const photo = await createPhoto(db, blobs, userId, {
        cameraId: row.camera_id,
        frame,
        captureMode: "single",
        autoCapture: true,
        detectionQuery: settings.query,
        detectionBoxes: boxes,
        videoWidth: frame.width,
        videoHeight: frame.height,
      });
      return { boxes: boxes.length, photoId: photo.id };
    }
    case "people_count": {
      const settings = row.settings as PeopleCountSettings;
      const sessionId = await activeRecording(db, row);
      const call = frameCall<CountRequest>(session, frame, { sessionId, useRange: settings.useRange, priority: "loop" });
      const counted = await countPeople(db, vision, blobs, call, signal);
      return { count: counted.count, countMin: counted.countMin, countMax: counted.countMax };
    }
    case "story": {
      const storyId = await activeRecording(db, row);
      const call = frameCall<CaptionRequest>(session, frame, { storyMode: true, priority: "loop" });
      const { caption: text } = await caption(db, vision, call, signal);
      // "" is the model's "nothing new": the studio records nothing then, and neither does a monitor.
      if (!text) return { caption: "" };
      const photo = await createPhoto(db, blobs, userId, {
        cameraId: row.camera_id,
        frame,
        captureMode: "single",
        autoCapture: false,
        storyId,
        videoWidth: frame.width,
        videoHeight: frame.height,
      });
      await addCaption(db, userId, storyId, { caption: text, photoId: photo.id });
      await recordMonitorResult(db, monitorRef(row), { description: text, photoId: photo.id }).catch((error: unknown) =>
        logger.warn({ err: error, monitorId: row.id }, "could not record a story caption on the timeline"),
      );
      return { caption: text };
    }
    case "local_capture":
      // Never claimed by a tick (claimTick leaves the kind out): its camera's local-vision pipeline runs it (./local.ts).
      throw new StopMonitor("This monitor runs in its camera's local vision, not on a schedule");
  }
}

/** The monitor's story or counting session; a new one when the person finished (or deleted) it in the studio. */
async function activeRecording(db: DB, row: q.MonitorRow): Promise<string> {
  if (row.recording_id) {
    const active = await (row.kind === "story" ? getStory(db, row.user_id, row.recording_id) : getSession(db, row.user_id, row.recording_id)).then(
      (recording) => recording.isActive,
      (error: unknown) => {
        if (error instanceof ProblemError && error.status === 404) return false;
        throw error;
      },
    );
    if (active) return row.recording_id;
  }
  const id = (await startRecording(db, row.user_id, row.kind, { id: row.camera_id, name: row.camera_name }))!;
  await q.updateMonitor(db, row.user_id, row.id, { recording_id: id });
  return id;
}

/**
 * At start-up, every minute, and every few seconds while processes may share the database (./takeover.ts): running
 * monitors without a live tick job get one (a crash took it, or it was lost), at their booked time, when a dead
 * tick's lease lapses, or at once when the process holding that lease is gone.
 */
export async function sweepMonitors(db: DB): Promise<number> {
  const orphans = await q.monitorsWithoutJob(db, leaseMs());
  const now = Date.now();
  for (const monitor of orphans) {
    const at = Math.max(now, monitor.next_run_at?.getTime() ?? now, monitor.lease_until?.getTime() ?? now);
    await scheduleTickIfNone(db, monitor.id, new Date(at));
  }
  if (orphans.length) logger.info({ monitors: orphans.length }, "monitors given their tick again");
  return orphans.length;
}
