// The alert rules' share of the domain events (server/events.ts): a detection, a count and each local-vision event
// claim their matching rules and queue their sends on the emitter's transaction, so an alert fires exactly when the
// change commits.
import type { DB } from "#db/index";
import { isDetection, type DomainEvent, type Listener } from "../events";
import { fireCountRules, fireDetectionRules, fireVisionRules } from "./rules";

export const alertListener: Listener = async (db: DB, events: readonly DomainEvent[]) => {
  for (const event of events) {
    switch (event.type) {
      case "photo.saved":
        if (isDetection(event)) await fireDetectionRules(db, event.userId, event.photo);
        break;
      case "count.recorded":
        await fireCountRules(db, event.userId, { count: event.count, session: event.session });
        break;
      case "line.crossed":
      case "zone.entered":
      case "zone.exited":
      case "zone.loitering":
        await fireVisionRules(db, event);
        break;
      case "story.finished":
      case "count_session.finished":
        break;
    }
  }
};
