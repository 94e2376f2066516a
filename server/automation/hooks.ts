// Where the studio's data services hand finished work to automation: webhook events and alert rules.
// Each hook is awaited (the event is durably queued before the request answers) but never fails it.
import type { CountSession } from "#app/schemas/people-count";
import type { Photo } from "#app/schemas/photos";
import type { Story } from "#app/schemas/stories";
import type { DB } from "#db/index";
import { fireCountRules, fireDetectionRules } from "../alerts/rules";
import { detectionEvent, publishEvent, publishQuietly, sessionFinishedEvent, storyFinishedEvent } from "../webhooks/events";

/** An auto-captured photo with at least one detection box is a detection event. */
export async function onPhotoSaved(db: DB, userId: string, photo: Photo): Promise<void> {
  if (!photo.autoCapture || !photo.detectionBoxes?.length) return;
  await publishQuietly("detection", () => publishEvent(db, userId, (webhook) => detectionEvent(webhook.eventType, userId, photo)));
  await publishQuietly("detection alert", () => fireDetectionRules(db, userId, photo));
}

export async function onStoryFinished(db: DB, userId: string, story: Story): Promise<void> {
  await publishQuietly("story_finished", () => publishEvent(db, userId, () => storyFinishedEvent(story)));
}

export async function onSessionFinished(db: DB, userId: string, session: CountSession): Promise<void> {
  await publishQuietly("people_count_session_finished", () => publishEvent(db, userId, () => sessionFinishedEvent(session)));
}

export async function onPeopleCounted(db: DB, userId: string, reading: { count: number; session: CountSession }): Promise<void> {
  await publishQuietly("people count alert", () => fireCountRules(db, userId, reading));
}
