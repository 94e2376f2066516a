// The studio's domain events and how they travel down: a domain service emits a typed event on the transaction that
// makes the change, and every listener registered at start-up (server/automation/listeners.ts: webhooks, alerts)
// writes its share on that same transaction. The event and what it causes commit together or not at all, and domain
// services never import the listeners (eslint.config.js, "Server layers").
import type { CountSession } from "#app/schemas/people-count";
import type { VisionEvent } from "#app/schemas/local-vision";
import type { Photo } from "#app/schemas/photos";
import type { Story } from "#app/schemas/stories";
import type { DB } from "#db/index";

export type VisionEventType = VisionEvent["type"];

/** A local-vision event on one of the camera's lines or zones, with the names it is shown by. */
export type VisionEventRecorded<Type extends VisionEventType> = {
  userId: string;
  camera: { id: string; name: string };
  /** The line's or zone's name. */
  targetName: string;
  event: Extract<VisionEvent, { type: Type }>;
};

/** Every domain event by its name, with what it carries. */
export interface DomainEvents {
  /**
   * A photo was saved. `ofVisionEvent`: it is the photo of a local-vision event (the studio names it in that event's
   * photoId), so that event tells about it and the photo is no detection of its own.
   */
  "photo.saved": { userId: string; photo: Photo; ofVisionEvent: boolean };
  "story.finished": { userId: string; story: Story };
  /** A counted frame was stored in a counting session (Moondream's or the studio's on-device count). */
  "count.recorded": { userId: string; count: number; session: CountSession };
  "count_session.finished": { userId: string; session: CountSession };
  "line.crossed": VisionEventRecorded<"line.crossed">;
  "zone.entered": VisionEventRecorded<"zone.entered">;
  "zone.exited": VisionEventRecorded<"zone.exited">;
  "zone.loitering": VisionEventRecorded<"zone.loitering">;
}

/**
 * An auto-captured photo with at least one detection box is a detection (webhooks and alerts tell about it), unless
 * it is a local-vision event's photo: that event tells about it.
 */
export function isDetection({ photo, ofVisionEvent }: DomainEvents["photo.saved"]): boolean {
  return photo.autoCapture && Boolean(photo.detectionBoxes?.length) && !ofVisionEvent;
}

export type DomainEventType = keyof DomainEvents;
/** One event: its `type` and its data. */
export type DomainEvent = { [Type in DomainEventType]: { type: Type } & DomainEvents[Type] }[DomainEventType];

/**
 * Reacts to a batch of events on the emitter's transaction (`db`). A listener that throws rolls the change back with
 * its events: nothing is half-delivered.
 */
export type Listener = (db: DB, events: readonly DomainEvent[]) => Promise<void>;

let registered: readonly Listener[] | undefined;

/** Sets the listeners every emit calls; done once per process at start-up (server/automation/listeners.ts). */
export function setListeners(listeners: readonly Listener[]): void {
  registered = listeners;
}

/**
 * Hands events to every listener, in order, on `db` — the transaction that makes the change they tell about, so they
 * are delivered exactly when it commits. A batch (local vision's events) goes as one call to each listener. Throws
 * when no listeners were registered: a process that forgot to register them would otherwise drop every event.
 */
export async function emit(db: DB, ...events: DomainEvent[]): Promise<void> {
  if (!registered) throw new Error("Domain event emitted before any listeners were registered (registerListeners in server/automation/listeners.ts)");
  if (events.length === 0) return;
  for (const listener of registered) await listener(db, events);
}
