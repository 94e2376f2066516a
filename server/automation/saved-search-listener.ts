// Saved searches as triggers: every saved photo is matched, in SQL and on its own transaction, against its owner's
// saved searches that notify; each search that matches (and has not fired for the photo yet) sends the search.matched
// webhook and its e-mail/SMS alert through the alert job, exactly when the photo commits.
import type { AlertJob } from "#app/schemas/events";
import type { Photo } from "#app/schemas/photos";
import type { SavedSearch } from "#app/schemas/search";
import type { DB } from "#db/index";
import { alertMessage } from "../alerts/messages";
import type { DomainEvent, Listener } from "../events";
import { enqueue } from "../jobs/queue";
import { signedPhotoUrl } from "../photos/links";
import { claimMatchingSearches } from "../search/saved";
import { publishEvents, searchMatchedEvent } from "../webhooks/events";

async function notify(db: DB, userId: string, search: SavedSearch, photo: Photo): Promise<void> {
  if (search.notifyWebhook) await publishEvents(db, userId, () => [searchMatchedEvent(userId, search, photo)]);
  if (!search.notifyEmail && !search.notifySms) return;
  const message = alertMessage("search_matched", { name: search.name, cameraName: photo.cameraName, at: photo.createdAt, photoUrl: signedPhotoUrl(userId, photo.id) });
  // ruleId names what fired: here the saved search.
  if (search.notifyEmail) await enqueue(db, "send_alert", { userId, ruleId: search.id, channel: "email", subject: message.subject, text: message.text } satisfies AlertJob);
  if (search.notifySms) await enqueue(db, "send_alert", { userId, ruleId: search.id, channel: "sms", subject: message.subject, text: message.sms } satisfies AlertJob);
}

export const savedSearchListener: Listener = async (db: DB, events: readonly DomainEvent[]) => {
  for (const event of events) {
    if (event.type !== "photo.saved") continue;
    for (const search of await claimMatchingSearches(db, event.userId, event.photo.id)) await notify(db, event.userId, search, event.photo);
  }
};
