// The webhook's share of the domain events (server/events.ts): each event with a webhook shape becomes a delivery row
// in the outbox, written on the emitter's transaction, so it is sent exactly when the change commits.
import type { DB } from "#db/index";
import { isDetection, type DomainEvent, type Listener } from "../events";
import { detectionEvent, publishEvents, sessionFinishedEvent, storyFinishedEvent, visionEvent, type EventEnvelope } from "./events";

/** The webhook body for an event, or null for events no webhook tells about (a count, a photo that is no detection). */
function toWebhookEvent(event: DomainEvent, kind: "simple" | "detailed"): EventEnvelope | null {
  switch (event.type) {
    case "photo.saved":
      return isDetection(event) ? detectionEvent(kind, event.userId, event.photo) : null;
    case "story.finished":
      return storyFinishedEvent(event.story);
    case "count_session.finished":
      return sessionFinishedEvent(event.session);
    case "count.recorded":
      return null;
    case "line.crossed":
    case "zone.entered":
    case "zone.exited":
    case "zone.loitering":
      return visionEvent(event);
  }
}

/** Whether the event has a webhook body, asked before the user's webhook is looked up (most photos have none). */
const sendsWebhook = (event: DomainEvent) => event.type !== "count.recorded" && (event.type !== "photo.saved" || isDetection(event));

export const webhookListener: Listener = async (db: DB, events: readonly DomainEvent[]) => {
  const byUser = new Map<string, DomainEvent[]>();
  for (const event of events.filter(sendsWebhook)) {
    const own = byUser.get(event.userId);
    if (own) own.push(event);
    else byUser.set(event.userId, [event]);
  }
  for (const [userId, own] of byUser) {
    await publishEvents(db, userId, (webhook) => own.flatMap((event) => toWebhookEvent(event, webhook.eventType) ?? []));
  }
};
