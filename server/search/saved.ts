// Saved searches: a name, the words and facets, and how to tell the user (webhook, e-mail, SMS) when a newly saved
// photo matches. A saved search fires at most once per photo: the (saved search, photo) pair is inserted with ON
// CONFLICT DO NOTHING on the photo's own transaction, so only the one insert that lands fires, in any process.
import type { Selectable } from "kysely";
import { sql } from "kysely";
import type { SavedSearch, SavedSearchCreate, SearchFilters } from "#app/schemas/search";
import type { DB } from "#db/index";
import type { SavedSearchesTable } from "#db/schema";
import { createWithinCap } from "../caps";
import { notFound } from "../errors";
import { facetConditions, hasLexemes } from "./queries";
import { correctWords } from "./service";

export const MAX_SAVED_SEARCHES = 20;

type SavedSearchRow = Selectable<SavedSearchesTable>;

export function toSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    notifyWebhook: row.notify_webhook,
    notifyEmail: row.notify_email,
    notifySms: row.notify_sms,
    createdAt: row.created_at.toISOString(),
  };
}

/** Only the facets that are set (jsonb keeps no undefined). */
const compact = (filters: SearchFilters): SearchFilters => Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== "")) as SearchFilters;

export async function listSavedSearches(db: DB, userId: string): Promise<SavedSearch[]> {
  const rows = await db.selectFrom("saved_searches").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toSavedSearch);
}

/** Saves the search with its misspelt words read as the search read them, so the trigger matches what the user saw. */
export async function createSavedSearch(db: DB, userId: string, input: SavedSearchCreate): Promise<SavedSearch> {
  const query = compact(input.query);
  if (query.q) query.q = (await correctWords(db, userId, query.q)).words;
  const cap = {
    resource: "saved_searches",
    owner: userId,
    max: MAX_SAVED_SEARCHES,
    refusal: `You can have at most ${MAX_SAVED_SEARCHES} saved searches`,
    count: async (trx: DB) =>
      Number(
        (
          await trx
            .selectFrom("saved_searches")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("user_id", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
  const row = await createWithinCap(db, cap, (trx) =>
    trx
      .insertInto("saved_searches")
      .values({ user_id: userId, name: input.name, query, notify_webhook: input.notifyWebhook, notify_email: input.notifyEmail, notify_sms: input.notifySms })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return toSavedSearch(row);
}

export async function deleteSavedSearch(db: DB, userId: string, id: string): Promise<void> {
  const row = await db.deleteFrom("saved_searches").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
  if (!row) throw notFound("Saved search");
}

/**
 * The user's notifying saved searches that match this photo, each claimed for it: a search already fired for the
 * photo (by this or another process) is left out. Runs on the photo's transaction, after its row (and its search
 * vector, by trigger) is written.
 */
export async function claimMatchingSearches(db: DB, userId: string, photoId: string): Promise<SavedSearch[]> {
  const searches = await db
    .selectFrom("saved_searches")
    .selectAll()
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("notify_webhook", "=", true), eb("notify_email", "=", true), eb("notify_sms", "=", true)]))
    .execute();
  const fired: SavedSearch[] = [];
  for (const search of searches) {
    const conditions = facetConditions(search.query);
    if (search.query.q && (await hasLexemes(db, search.query.q))) conditions.push(sql`search @@ websearch_to_tsquery('english', ${search.query.q})`);
    const { rows } = await sql<{ saved_search_id: string }>`
      insert into saved_search_hits (saved_search_id, photo_id)
      select ${search.id}, id from photos where id = ${photoId} and user_id = ${userId} and ${sql.join(conditions.length ? conditions : [sql`true`], sql` and `)}
      on conflict do nothing
      returning saved_search_id`.execute(db);
    if (rows.length > 0) fired.push(toSavedSearch(search));
  }
  return fired;
}
