// What the timeline records, from where each thing is known: local-vision events and auto-captures from the domain
// events (./listener.ts, on the emitter's transaction), monitor results and errors from the monitors, alerts from their
// send, webhook deliveries from the dispatcher once it gives up. Each call is one multi-row insert (./queries.ts).
import type { AlertJob } from "#app/schemas/events";
import type { DB } from "#db/index";
import { findCamera } from "../cameras/queries";
import { insertEvents, type NewTimelineEvent } from "./queries";

/** A monitor as its events show it. */
export interface MonitorRef {
  id: string;
  userId: string;
  name: string;
  kind: string;
  cameraId: string;
  /** Looked up when not known. */
  cameraName?: string | null;
}

async function cameraNameOf(db: DB, monitor: MonitorRef): Promise<string | null> {
  if (monitor.cameraName !== undefined) return monitor.cameraName;
  return (await findCamera(db, monitor.userId, monitor.cameraId))?.name ?? null;
}

/** A monitor's result worth reviewing (a story caption, a changed count): its photo and text. */
export async function recordMonitorResult(
  db: DB,
  monitor: MonitorRef,
  result: { description: string; label?: string | null; photoId?: string | null; detail?: Record<string, unknown> },
): Promise<void> {
  await insertEvents(db, [
    {
      user_id: monitor.userId,
      camera_id: monitor.cameraId,
      camera_name: await cameraNameOf(db, monitor),
      type: "monitor.result",
      label: result.label ?? null,
      target_name: monitor.name,
      photo_id: result.photoId ?? null,
      description: result.description,
      detail: { monitorId: monitor.id, kind: monitor.kind, ...result.detail },
      occurred_at: new Date(),
    },
  ]);
}

/** A monitor's tick or capture that failed, with the message the monitor shows. */
export async function recordMonitorError(db: DB, monitor: MonitorRef, message: string): Promise<void> {
  await insertEvents(db, [
    {
      user_id: monitor.userId,
      camera_id: monitor.cameraId,
      camera_name: await cameraNameOf(db, monitor),
      type: "monitor.error",
      label: null,
      target_name: monitor.name,
      photo_id: null,
      description: message,
      detail: { monitorId: monitor.id, kind: monitor.kind },
      occurred_at: new Date(),
    },
  ]);
}

/** An alert's e-mail or text message, sent or not (`error`: why the transport refused it; the queue retries it). */
export async function recordAlert(db: DB, job: AlertJob, error?: string): Promise<void> {
  await insertEvents(db, [
    {
      user_id: job.userId,
      camera_id: null,
      camera_name: null,
      type: error === undefined ? "alert.sent" : "alert.failed",
      label: null,
      target_name: job.subject,
      photo_id: null,
      description: error === undefined ? job.text : `${error} (${job.subject})`,
      detail: { ruleId: job.ruleId, channel: job.channel },
      occurred_at: new Date(),
    },
  ]);
}

/** Webhook deliveries given up on for good: the event they carried and the last error. */
export async function recordWebhookFailures(
  db: DB,
  failures: readonly { userId: string; deliveryId: string; eventType: string; attempts: number; responseStatus: number | null; error: string | null }[],
): Promise<void> {
  const rows: NewTimelineEvent[] = failures.map((failure) => ({
    user_id: failure.userId,
    camera_id: null,
    camera_name: null,
    type: "webhook.failed",
    label: null,
    target_name: failure.eventType,
    photo_id: null,
    description: `Webhook delivery of ${failure.eventType} failed after ${failure.attempts} attempts: ${failure.error ?? "no answer"}`,
    detail: { deliveryId: failure.deliveryId, attempts: failure.attempts, responseStatus: failure.responseStatus },
    occurred_at: new Date(),
  }));
  await insertEvents(db, rows);
}
