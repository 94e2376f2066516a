// The events Framewise sends, their payloads, and publishing one: a delivery row (the webhook-id and the
// exact payload) plus its queue job, written in one transaction, only when the user's webhook is on.
import { randomBytes } from "node:crypto";
import type { WebhookEvent, WebhookEventData, WebhookEventType } from "#app/schemas/events";
import type { Photo } from "#app/schemas/photos";
import type { CountSession } from "#app/schemas/people-count";
import type { Story } from "#app/schemas/stories";
import type { DB } from "#db/index";
import { logger } from "../logger";
import { linkOrigin, signedPhotoUrl } from "../photos/links";
import * as q from "./queries";

/** One event as it is POSTed; its shape is the event's schema in app/schemas/events.ts. */
export type EventEnvelope = WebhookEvent;

/** webhook-id: unique per event, no "." (the signed content is id.timestamp.body). */
export function newMessageId(): string {
  return `msg_${Date.now().toString(36)}${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** An event of one type with its data, typed by that event's schema. */
export function envelope<Type extends WebhookEventType>(type: Type, data: WebhookEventData<Type>, at = new Date()): WebhookEvent<Type> {
  return { type, event: type, timestamp: at.toISOString(), data } as WebhookEvent<Type>;
}

/** The two shapes of studio.md §7: 'simple' → detection_made, 'detailed' → detection_details + photo id and a signed link. */
export function detectionEvent(kind: "simple" | "detailed", userId: string, photo: Photo): EventEnvelope {
  const boxes = photo.detectionBoxes ?? [];
  const common = { object: photo.detectionQuery, detected: boxes.length > 0, timestamp: photo.createdAt, boxCount: boxes.length };
  if (kind === "simple") return envelope("detection_made", common);
  return envelope("detection_details", {
    ...common,
    boxes,
    cameraId: photo.cameraId,
    cameraName: photo.cameraName,
    autoCapture: photo.autoCapture,
    photoId: photo.id,
    photoUrl: signedPhotoUrl(userId, photo.id),
  });
}

export function storyFinishedEvent(story: Story): EventEnvelope {
  return envelope("story_finished", {
    storyId: story.id,
    title: story.title,
    cameraId: story.cameraId,
    cameraName: story.cameraName,
    startedAt: story.createdAt,
    // Sent once the story is finished, so it has its end.
    finishedAt: story.finishedAt!,
    url: `${linkOrigin()}/studio`,
  });
}

export function sessionFinishedEvent(session: CountSession): EventEnvelope {
  return envelope("people_count_session_finished", {
    sessionId: session.id,
    title: session.title,
    cameraId: session.cameraId,
    cameraName: session.cameraName,
    startedAt: session.createdAt,
    finishedAt: session.finishedAt!,
    snapshotCount: session.snapshotCount,
    averageCount: session.averageCount,
    minCount: session.minCount,
    maxCount: session.maxCount,
    source: session.source,
    url: `${linkOrigin()}/studio`,
  });
}

interface ActiveWebhook {
  eventType: "simple" | "detailed";
}

async function activeWebhook(db: DB, userId: string): Promise<ActiveWebhook | null> {
  const row = await q.findWebhook(db, userId);
  return row?.webhook_enabled && row.webhook_url ? { eventType: row.webhook_event_type } : null;
}

/** Queues one event for the user's webhook; returns its webhook-id, or null when no webhook is on. */
export async function publishEvent(db: DB, userId: string, build: (webhook: ActiveWebhook) => EventEnvelope): Promise<string | null> {
  const [id] = await publishEvents(db, userId, (webhook) => [build(webhook)]);
  return id ?? null;
}

/** Queues a batch of events (the studio's local-vision events) with one look-up and one statement; returns their webhook-ids. */
export async function publishEvents(db: DB, userId: string, build: (webhook: ActiveWebhook) => EventEnvelope[]): Promise<string[]> {
  const webhook = await activeWebhook(db, userId);
  if (!webhook) return [];
  const deliveries = build(webhook).map((payload) => ({ id: newMessageId(), eventType: payload.type, payloadJson: JSON.stringify(payload) }));
  await q.queueDeliveries(db, userId, deliveries);
  return deliveries.map((d) => d.id);
}

/**
 * For services finishing their own work: publishing must never fail the user's request (the photo is
 * saved either way), so a failure here is logged rather than thrown.
 */
export async function publishQuietly(what: string, publish: () => Promise<unknown>): Promise<void> {
  try {
    await publish();
  } catch (error) {
    logger.error({ err: error, event: what }, "could not queue an automation event");
  }
}
