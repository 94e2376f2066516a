// SQL for feature requests (the admin dashboard reads them through server/admin/queries.ts).
import type { DB } from "#db/index";

export function insertFeatureRequest(db: DB, values: { user_id: string; title: string; description: string }) {
  return db.insertInto("feature_requests").values(values).returning(["id", "user_id", "title", "description", "created_at"]).executeTakeFirstOrThrow();
}
