// Feature requests: any signed-in user may send one.
import type { FeatureRequest, FeatureRequestInput } from "#app/schemas/feature-requests";
import type { DB } from "#db/index";
import { insertFeatureRequest } from "./queries";

export async function createFeatureRequest(db: DB, userId: string, input: FeatureRequestInput): Promise<FeatureRequest> {
  const row = await insertFeatureRequest(db, { user_id: userId, title: input.title, description: input.description });
  return { id: row.id, userId: row.user_id, title: row.title, description: row.description, createdAt: row.created_at.toISOString() };
}
