// The timeline's share of the domain events (server/events.ts): each local-vision event and each auto-captured photo
// becomes a timeline row, written with one insert per batch on the emitter's transaction (it commits with the change).
import type { DB } from "#db/index";
import type { DomainEvent, Listener } from "../events";
import { insertEvents, type NewTimelineEvent } from "./queries";

function rowOf(event: DomainEvent): NewTimelineEvent | null {
  switch (event.type) {
    case "line.crossed":
    case "zone.entered":
    case "zone.exited":
    case "zone.loitering": {
      const { event: seen, camera, targetName, userId } = event;
      const detail: Record<string, unknown> = { trackId: seen.trackId };
      if (seen.type === "line.crossed") detail.direction = seen.direction;
      if (seen.type === "zone.exited" || seen.type === "zone.loitering") detail.dwellSeconds = seen.dwellSeconds;
      if (seen.box) detail.box = seen.box;
      return {
        user_id: userId,
        camera_id: camera.id,
        camera_name: camera.name,
        type: seen.type,
        label: seen.label,
        target_name: targetName,
        photo_id: seen.photoId ?? null,
        description: seen.description ?? null,
        detail,
        occurred_at: new Date(seen.at),
      };
    }
    case "photo.saved": {
      // A local-vision event's photo is shown by that event; other photos are the library's, not events.
      const { photo, ofVisionEvent, userId } = event;
      if (!photo.autoCapture || ofVisionEvent) return null;
      return {
        user_id: userId,
        camera_id: photo.cameraId,
        camera_name: photo.cameraName,
        type: "photo.auto_captured",
        label: photo.detectionQuery,
        target_name: null,
        photo_id: photo.id,
        description: photo.description,
        detail: { boxes: photo.detectionBoxes?.length ?? 0 },
        occurred_at: new Date(photo.createdAt),
      };
    }
    case "story.finished":
    case "count.recorded":
    case "count_session.finished":
      return null;
  }
}

export const timelineListener: Listener = async (db: DB, events: readonly DomainEvent[]) => {
  await insertEvents(
    db,
    events.flatMap((event) => rowOf(event) ?? []),
  );
};
