// SQL for the admin dashboard: every user and every feature request, a page at a time.
import type { DB } from "#db/index";

export function countUsers(db: DB) {
  return db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
}

export function listUsers(db: DB, limit: number, offset: number) {
  return db
    .selectFrom("users")
    .leftJoin("webhook_settings", "webhook_settings.user_id", "users.id")
    .select(["users.id", "users.username", "users.role", "users.created_at", "users.moondream_key_ciphertext", "webhook_settings.webhook_url", "webhook_settings.webhook_enabled"])
    .orderBy("users.created_at", "desc")
    .orderBy("users.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

export function countFeatureRequests(db: DB) {
  return db
    .selectFrom("feature_requests")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
}

export function listFeatureRequests(db: DB, limit: number, offset: number) {
  return db
    .selectFrom("feature_requests")
    .leftJoin("users", "users.id", "feature_requests.user_id")
    .select(["feature_requests.id", "feature_requests.user_id", "feature_requests.title", "feature_requests.description", "feature_requests.created_at", "users.username"])
    .orderBy("feature_requests.created_at", "desc")
    .orderBy("feature_requests.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}
