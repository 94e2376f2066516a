// The transaction-scoped advisory locks that order Insights' writers across processes: a rollup (a camera's hours and
// days, then its site's hours), a rebuild of a camera's days, a rebuild of a site's hours. Each takes its cameras in
// id order and then its sites in id order, so no two ever wait on each other in a circle.
import { sql } from "kysely";
import type { DB } from "#db/index";

/** A camera's rollup rows: one writer at a time. */
export async function lockCamera(trx: DB, cameraId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`insights-days:${cameraId}`}))`.execute(trx);
}

/** A site's summed hours: one writer at a time. */
export async function lockSite(trx: DB, siteId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`insights-site:${siteId}`}))`.execute(trx);
}
