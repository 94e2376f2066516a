// The events Framewise sends, their payloads, and publishing one: a delivery row (the webhook-id and the
// exact payload) plus its queue job, written in one transaction, only when the user's webhook is on.
import { randomBytes } from "node:crypto";
import type { WebhookEvent, WebhookEventData, WebhookEventType } from "#app/schemas/events";
import type { Photo } from "#app/schemas/photos";
import type { SavedSearch } from "#app/schemas/search";
import type { CountSession } from "#app/schemas/people-count";
import type { Story } from "#app/schemas/stories";
import type { DB } from "#db/index";
import type { DomainEvents, VisionEventType } from "../events";
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

/** The webhook event for one local-vision event on a named line or zone, with its photo (a signed link) and description. */
export function visionEvent({ userId, camera, targetName, event }: DomainEvents[VisionEventType]): EventEnvelope {
  const at = new Date(event.at);
  const common = {
    cameraId: camera.id,
    cameraName: camera.name,
    trackId: event.trackId,
    label: event.label,
    at: at.toISOString(),
    box: event.box,
    ...(event.photoId ? { photoId: event.photoId, photoUrl: signedPhotoUrl(userId, event.photoId) } : {}),
    ...(event.description ? { description: event.description } : {}),
  };
  switch (event.type) {
    case "line.crossed":
      return envelope("line.crossed", { ...common, lineId: event.lineId, lineName: targetName, direction: event.direction }, at);
    case "zone.entered":
      return envelope("zone.entered", { ...common, zoneId: event.zoneId, zoneName: targetName }, at);
    case "zone.exited":
      return envelope("zone.exited", { ...common, zoneId: event.zoneId, zoneName: targetName, dwellSeconds: event.dwellSeconds }, at);
    case "zone.loitering":
      return envelope("zone.loitering", { ...common, zoneId: event.zoneId, zoneName: targetName, dwellSeconds: event.dwellSeconds }, at);
  }
}

/** A newly saved photo matched a saved search (server/search/saved.ts claims each pair once). */
export function searchMatchedEvent(userId: string, search: SavedSearch, photo: Photo): EventEnvelope {
  return envelope("search.matched", {
    savedSearchId: search.id,
    name: search.name,
    query: search.query,
    photoId: photo.id,
    photoUrl: signedPhotoUrl(userId, photo.id),
    cameraId: photo.cameraId,
    cameraName: photo.cameraName,
    takenAt: photo.createdAt,
    detectionQuery: photo.detectionQuery,
    description: photo.description,
  });
}

interface ActiveWebhook {
  eventType: "simple" | "detailed";
}

async function activeWebhook(db: DB, userId: string): Promise<ActiveWebhook | null> {
  const row = await q.findWebhook(db, userId);
  return row?.webhook_enabled && row.webhook_url ? { eventType: row.webhook_event_type } : null;
}

/** Queues a batch of events (one emit's: a local-vision batch) with one look-up and one statement; returns their webhook-ids. */
export async function publishEvents(db: DB, userId: string, build: (webhook: ActiveWebhook) => EventEnvelope[]): Promise<string[]> {
  const webhook = await activeWebhook(db, userId);
  if (!webhook) return [];
  const deliveries = build(webhook).map((payload) => ({ id: newMessageId(), eventType: payload.type, payloadJson: JSON.stringify(payload) }));
  await q.queueDeliveries(db, userId, deliveries);
  return deliveries.map((d) => d.id);
}
