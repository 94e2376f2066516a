// Monitors: the owner's rows and the rules a person acts through (create on an IP camera, rename, change
// settings, pause, resume, delete). The ticks themselves run in ./runner.ts on the job queue.
import type { z } from "zod";
import {
  isLocalKind,
  LOCAL_TRIGGER_LABELS,
  MAX_MONITORS,
  MONITOR_KIND_LABELS,
  monitorSettingsSchemas,
  triggerRegion,
  type LocalCaptureSettings,
  type Monitor,
  type MonitorCreateInput,
  type MonitorResult,
  type MonitorUpdateInput,
} from "#app/schemas/monitors";
import type { DB } from "#db/index";
import { createWithinCap } from "../caps";
import * as cameraQueries from "../cameras/queries";
import { createSession, finishSession } from "../counting/service";
import { notFound, ProblemError } from "../errors";
import { getLocalDetector } from "../local-detector/service";
import { logger } from "../logger";
import { createStory, finishStory } from "../stories/service";
import { releaseHold } from "./holds";
import * as q from "./queries";
import { cancelTicks, scheduleTick } from "./schedule";

export function toMonitor(row: q.MonitorRow): Monitor {
  return {
    id: row.id,
    cameraId: row.camera_id,
    cameraName: row.camera_name,
    kind: row.kind,
    name: row.name,
    settings: row.settings as Monitor["settings"],
    state: row.state,
    statusMessage: row.status_message,
    failures: row.failures,
    lastRunAt: row.last_run_at?.toISOString() ?? null,
    lastResult: (row.last_result as MonitorResult | null) ?? null,
    lastError: row.last_error,
    nextRunAt: row.next_run_at?.toISOString() ?? null,
    recordingId: row.recording_id,
    createdAt: row.created_at.toISOString(),
  };
}

async function find(db: DB, userId: string, id: string): Promise<q.MonitorRow> {
  const row = await q.findMonitor(db, userId, id);
  if (!row) throw notFound("Monitor");
  return row;
}

export async function listMonitors(db: DB, userId: string): Promise<Monitor[]> {
  return (await q.listMonitors(db, userId)).map(toMonitor);
}

export async function getMonitor(db: DB, userId: string, id: string): Promise<Monitor> {
  return toMonitor(await find(db, userId, id));
}

/** The user's IP camera, or 422 under cameraId: monitors pull frames on the server, which only IP cameras give. */
async function ipCamera(db: DB, userId: string, cameraId: string) {
  const camera = await cameraQueries.findCamera(db, userId, cameraId);
  if (!camera || camera.source !== "ip") {
    throw new ProblemError(422, "Monitors run on IP cameras only: choose one of your IP cameras", { errors: { cameraId: ["not one of your IP cameras"] } });
  }
  return camera;
}

/** A field's 422, as the API reports a refused setting. */
const refused = (field: string, message: string) => new ProblemError(422, message, { errors: { [field]: [message] } });

/**
 * A local_capture monitor runs in its camera's local-vision pipeline, so the camera must be watched (a refusal rather
 * than switching the watch on: that starts a pipeline that takes this server's CPU all day and counts every line and
 * zone, which the person decides in the camera's own dialog); its class must be one the detector knows, and its line or
 * zone the camera's own, counting that class.
 */
async function checkLocalCapture(db: DB, userId: string, cameraId: string, settings: LocalCaptureSettings): Promise<string> {
  if (!(await q.cameraWatched(db, cameraId))) {
    throw refused("cameraId", "Switch on “Watch with local vision” for this camera first: this monitor runs in the server's local vision of it");
  }
  const detector = await getLocalDetector(db);
  if (!detector.labels.includes(settings.label)) throw refused("settings.label", `The detector (${detector.name}) does not know "${settings.label}"`);
  const region = triggerRegion(settings.trigger);
  if (!region) return "";
  const found = settings.regionId ? await q.findRegion(db, userId, cameraId, region, settings.regionId) : undefined;
  if (!found) throw refused("settings.regionId", `Choose a ${region} of this camera`);
  if (found.labels.length > 0 && !found.labels.includes(settings.label)) {
    throw refused("settings.regionId", `The ${region} “${found.name}” counts ${found.labels.join(", ")} only, not ${settings.label}`);
  }
  return found.name;
}

/** The default name: "Capture on local vision: person crosses Way out on Meeting room". */
function localName(settings: LocalCaptureSettings, regionName: string): string {
  const what = settings.trigger === "appears" ? "appears" : `${LOCAL_TRIGGER_LABELS[settings.trigger].split(" ")[0]} ${regionName}`;
  return `${MONITOR_KIND_LABELS.local_capture}: ${settings.label} ${what}`;
}

/** The story or counting session a new (or resumed) monitor writes to. */
export async function startRecording(db: DB, userId: string, kind: Monitor["kind"], camera: { id: string; name: string }): Promise<string | null> {
  if (kind === "people_count") return (await createSession(db, userId, { cameraId: camera.id, cameraName: camera.name })).id;
  if (kind === "story") return (await createStory(db, userId, { cameraId: camera.id, cameraName: camera.name })).id;
  return null;
}

/** Closes the monitor's story or counting session, so its "finished" webhook fires as when the studio stops one. */
async function finishRecording(db: DB, userId: string, monitor: { kind: Monitor["kind"]; recording_id: string | null }): Promise<void> {
  if (!monitor.recording_id) return;
  try {
    if (monitor.kind === "people_count") await finishSession(db, userId, monitor.recording_id);
    if (monitor.kind === "story") await finishStory(db, userId, monitor.recording_id);
  } catch (error) {
    // Deleted by the user meanwhile: nothing left to finish.
    if (!(error instanceof ProblemError && error.status === 404)) throw error;
  }
}

export async function createMonitor(db: DB, userId: string, input: MonitorCreateInput): Promise<Monitor> {
  const camera = await ipCamera(db, userId, input.cameraId);
  const regionName = input.kind === "local_capture" ? await checkLocalCapture(db, userId, camera.id, input.settings) : "";
  const what =
    input.kind === "auto_capture"
      ? `${MONITOR_KIND_LABELS.auto_capture}: ${input.settings.query}`
      : input.kind === "local_capture"
        ? localName(input.settings, regionName)
        : MONITOR_KIND_LABELS[input.kind];
  const name = input.name ?? `${what} on ${camera.name}`;
  const local = isLocalKind(input.kind);
  const now = new Date();
  const cap = {
    resource: "monitors",
    owner: userId,
    max: MAX_MONITORS,
    refusal: `You can have at most ${MAX_MONITORS} monitors`,
    count: (trx: DB) => q.countMonitors(trx, userId),
  };
  // The story or session is made in the same transaction, so a refused monitor leaves none behind.
  const { id } = await createWithinCap(db, cap, async (trx) =>
    q.insertMonitor(trx, {
      user_id: userId,
      camera_id: camera.id,
      kind: input.kind,
      name: name.slice(0, 100),
      settings: input.settings,
      state: "running",
      // A local monitor has no ticks: its camera's pipeline reads it within seconds.
      next_run_at: local ? null : now,
      recording_id: await startRecording(trx, userId, input.kind, camera),
    }),
  );
  const created = await getMonitor(db, userId, id); // as created, before the first tick can change it
  if (!local) await scheduleTick(db, id, now);
  return created;
}

/** Merged settings checked against the monitor's kind; a bad field is 422 under `settings.<field>`. */
function mergeSettings(kind: Monitor["kind"], current: Record<string, unknown>, patch: NonNullable<MonitorUpdateInput["settings"]>) {
  const schema: z.ZodType = monitorSettingsSchemas[kind];
  const result = schema.safeParse({ ...current, ...patch });
  if (result.success) return result.data as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[`settings.${issue.path.join(".")}`] ??= []).push(issue.message);
  const [field, messages] = Object.entries(errors)[0]!;
  throw new ProblemError(422, `${field}: ${messages[0]}`, { errors });
}

export async function updateMonitor(db: DB, userId: string, id: string, input: MonitorUpdateInput): Promise<Monitor> {
  const row = await find(db, userId, id);
  const settings = input.settings ? mergeSettings(row.kind, row.settings, input.settings) : undefined;
  if (settings && row.kind === "local_capture") await checkLocalCapture(db, userId, row.camera_id, settings as LocalCaptureSettings);
  await q.updateMonitor(db, userId, id, { ...(input.name !== undefined ? { name: input.name } : {}), ...(settings ? { settings } : {}) });
  // A new interval applies from the last run: a waiting tick moves (earlier or later) to match it.
  if (settings && row.state === "running" && settings.intervalSeconds !== (row.settings as { intervalSeconds?: number }).intervalSeconds) {
    const due = new Date(Math.max(Date.now(), (row.last_run_at?.getTime() ?? 0) + Number(settings.intervalSeconds) * 1000));
    await q.updateMonitor(db, userId, id, { next_run_at: due });
    await scheduleTick(db, id, due);
  }
  return getMonitor(db, userId, id);
}

export async function pauseMonitor(db: DB, userId: string, id: string): Promise<Monitor> {
  await find(db, userId, id);
  await q.updateMonitor(db, userId, id, { state: "paused", status_message: null, next_run_at: null });
  await cancelTicks(db, id);
  releaseHold(id);
  return getMonitor(db, userId, id);
}

/** Runs it again now, whatever stopped it (a pause, an exhausted quota, failures); counts failures afresh. */
export async function resumeMonitor(db: DB, userId: string, id: string): Promise<Monitor> {
  const row = await find(db, userId, id);
  const local = isLocalKind(row.kind);
  const now = new Date();
  await q.updateMonitor(db, userId, id, { state: "running", status_message: null, failures: 0, next_run_at: local ? null : now });
  // Read before the tick is booked: the answer is the state resume set, not whatever the first tick (which may
  // run at once, in another process) made of it.
  const resumed = await getMonitor(db, userId, id);
  if (!local) await scheduleTick(db, id, now);
  return resumed;
}

export async function deleteMonitor(db: DB, userId: string, id: string): Promise<void> {
  const row = await q.deleteMonitor(db, userId, id);
  if (!row) throw notFound("Monitor");
  await cancelTicks(db, id);
  releaseHold(id);
  await finishRecording(db, userId, row);
}

/**
 * Before a camera is deleted: its monitors' stories and sessions are finished (their webhooks fire); the
 * monitors themselves go with the camera (ON DELETE CASCADE), and a tick that finds its row gone ends.
 */
export async function retireCameraMonitors(db: DB, userId: string, cameraId: string): Promise<void> {
  for (const monitor of await q.monitorsOfCamera(db, userId, cameraId)) {
    releaseHold(monitor.id);
    await cancelTicks(db, monitor.id);
    await finishRecording(db, userId, monitor).catch((error: unknown) => logger.warn({ err: error, monitorId: monitor.id }, "could not finish a monitor's recording"));
  }
}
