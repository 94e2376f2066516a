// The admin dashboard's reads. Callers must have checked the admin role (requireAdmin).
import { ADMIN_PAGE_SIZE, type AdminUser } from "#app/schemas/admin";
import type { FeatureRequest } from "#app/schemas/feature-requests";
import type { DB } from "#db/index";
import * as queries from "./queries";

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageCount: number;
}

function pageOf<T>(items: T[], total: number, page: number): Page<T> {
  return { items, total, page, pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) };
}

export async function listUsers(db: DB, page: number): Promise<Page<AdminUser>> {
  const [rows, { count }] = await Promise.all([queries.listUsers(db, ADMIN_PAGE_SIZE, (page - 1) * ADMIN_PAGE_SIZE), queries.countUsers(db)]);
  const items = rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role,
    hasMoondreamApiKey: row.moondream_key_ciphertext !== null,
    hasWebhook: Boolean(row.webhook_url),
    webhookEnabled: Boolean(row.webhook_url) && row.webhook_enabled === true,
    createdAt: row.created_at.toISOString(),
  }));
  return pageOf(items, Number(count), page);
}

/** Feature requests with the submitter's name (null when the account is gone). */
export async function listFeatureRequests(db: DB, page: number): Promise<Page<FeatureRequest & { username: string | null }>> {
  const [rows, { count }] = await Promise.all([queries.listFeatureRequests(db, ADMIN_PAGE_SIZE, (page - 1) * ADMIN_PAGE_SIZE), queries.countFeatureRequests(db)]);
  const items = rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    title: row.title,
    description: row.description,
    createdAt: row.created_at.toISOString(),
    username: row.username,
  }));
  return pageOf(items, Number(count), page);
}
