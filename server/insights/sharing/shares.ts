// Read-only share links: a saved view anyone with the link may read until it expires or its owner revokes it. The
// link carries the share's id, its expiry and an HMAC of both (../../signed-links.ts); the row says whether it
// still stands. Every way a link can fail answers the same 404, so a link tells nothing about why.
import type { DB } from "#db/index";
import { MAX_SHARES, savedViewSchema, type InsightsReport, type SavedView, type Share, type ShareInput } from "#app/schemas/insights";
import { ProblemError, notFound } from "../../errors";
import { linkSignature, validLinkSignature } from "../../signed-links";
import { buildReport } from "../report";
import { requireOwnView, viewQuery } from "./view";

type ShareRow = { id: string; name: string; kind: "report" | "widget"; view: Record<string, unknown>; expires_at: Date; revoked_at: Date | null; created_at: Date };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const subject = (id: string) => `insight-share.${id}`;

/** The share's signed path and query: the report page, or the lobby widget. */
export function shareUrl(row: Pick<ShareRow, "id" | "kind" | "expires_at">): string {
  const expires = Math.floor(row.expires_at.getTime() / 1000);
  const query = new URLSearchParams({ expires: String(expires), signature: linkSignature(subject(row.id), expires) });
  return `/insights/${row.kind === "widget" ? "widget" : "shared"}/${row.id}?${query}`;
}

function toShare(row: ShareRow): Share {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    view: savedViewSchema.parse(row.view),
    url: shareUrl(row),
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

const columns = ["id", "name", "kind", "view", "expires_at", "revoked_at", "created_at"] as const;

export async function listShares(db: DB, userId: string): Promise<Share[]> {
  const rows = await db.selectFrom("insight_shares").select(columns).where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map(toShare);
}

export async function createShare(db: DB, userId: string, input: ShareInput, now = new Date()): Promise<Share> {
  await requireOwnView(db, userId, input.view);
  const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + input.expiresInDays * 86_400_000);
  return db.transaction().execute(async (trx) => {
    // The user's row locked, so two requests at once cannot both take the last free place.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const live = await trx
      .selectFrom("insight_shares")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= MAX_SHARES) throw new ProblemError(409, `At most ${MAX_SHARES} live share links: revoke one first`);
    const row = await trx
      .insertInto("insight_shares")
      .values({ user_id: userId, name: input.name, kind: input.kind, view: input.view, expires_at: expiresAt })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toShare(row);
  });
}

export async function revokeShare(db: DB, userId: string, id: string): Promise<void> {
  const result = await db
    .updateTable("insight_shares")
    .set({ revoked_at: new Date() })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .returning("revoked_at")
    .executeTakeFirst();
  if (!result) throw notFound("Share link");
}

/** The one answer for a link that does not stand, whatever the reason. */
export const shareLinkGone = () => new ProblemError(404, "This share link does not work: it may have expired or been revoked");

/** The share a signed link opens, or the same 404 when it is forged, expired, revoked or gone. */
export async function openShare(
  db: DB,
  id: string,
  query: { expires?: string; signature?: string },
  now = new Date(),
): Promise<{ userId: string; kind: "report" | "widget"; name: string; view: SavedView }> {
  if (!UUID.test(id)) throw shareLinkGone();
  id = id.toLowerCase();
  if (!validLinkSignature(subject(id), query.expires, query.signature, now.getTime())) throw shareLinkGone();
  const row = await db.selectFrom("insight_shares").select(["user_id", "kind", "name", "view", "expires_at", "revoked_at"]).where("id", "=", id).executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw shareLinkGone();
  return { userId: row.user_id, kind: row.kind, name: row.name, view: savedViewSchema.parse(row.view) };
}

/**
 * The report a share link shows: its view over its relative period read in the report's time zone now. A view that
 * no longer names only its owner's things (a camera deleted since) answers the same 404 as a revoked link.
 */
export async function sharedReport(
  db: DB,
  id: string,
  query: { expires?: string; signature?: string },
  now = new Date(),
): Promise<{ kind: "report" | "widget"; name: string; view: SavedView; report: InsightsReport }> {
  const share = await openShare(db, id, query, now);
  try {
    const report = await buildReport(db, share.userId, await viewQuery(db, share.userId, share.view, share.view.period, now));
    return { kind: share.kind, name: share.name, view: share.view, report };
  } catch (error) {
    if (error instanceof ProblemError && (error.status === 404 || error.status === 400)) throw shareLinkGone();
    throw error;
  }
}
