// Removes blobs no row refers to. Services write blobs first and the row second (so no row ever points at a
// missing blob); a crash between the two — or a lost disk write's temp file — leaves bytes nobody can reach.
// Only files older than a grace period are considered, so an upload in flight on any app server (its blobs
// written, its row not yet committed) is never touched.
import { sql } from "kysely";
import type { DB } from "#db/index";
import type { BlobStore } from "./blob-store";

const BATCH = 500;

export interface SweepResult {
  /** Blobs older than the grace period that were looked up. */
  checked: number;
  /** Of those, the ones no row referred to, now deleted. */
  orphans: number;
  /** Abandoned partial writes deleted. */
  temporaries: number;
}

/** Every column that holds a blob key: the sweeper keeps what they name, the blobs command copies exactly that. */
const BLOB_COLUMNS = [
  ["photos", "image_key"],
  ["photos", "thumbnail_key"],
  ["count_snapshots", "image_key"],
  ["count_snapshots", "thumbnail_key"],
  ["cameras", "image_key"],
  ["cameras", "thumbnail_key"],
  ["detector_models", "blob_key"],
] as const;

/** Of `keys`, those no photo, count snapshot, camera or detector model row refers to. */
async function unreferenced(db: DB, keys: string[]): Promise<string[]> {
  const referencing = BLOB_COLUMNS.map(([table, column]) => sql`except select ${sql.ref(column)} from ${sql.table(table)} where ${sql.ref(column)} = any(${keys}::text[])`);
  const { rows } = await sql<{ key: string }>`select k as key from unnest(${keys}::text[]) as k ${sql.join(referencing, sql` `)}`.execute(db);
  return rows.map((r) => r.key);
}

/** Every blob key a row refers to, each once, in key order. */
export async function referencedBlobKeys(db: DB): Promise<string[]> {
  const columns = BLOB_COLUMNS.map(([table, column]) => sql`select ${sql.ref(column)} as key from ${sql.table(table)}`);
  const { rows } = await sql<{ key: string }>`select distinct key from (${sql.join(columns, sql` union all `)}) as referenced where key is not null order by key`.execute(db);
  return rows.map((r) => r.key);
}

export async function sweepOrphanBlobs(db: DB, store: BlobStore, options: { graceMs: number; now?: number }): Promise<SweepResult> {
  const before = new Date((options.now ?? Date.now()) - options.graceMs);
  const result: SweepResult = { checked: 0, orphans: 0, temporaries: 0 };
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const keys = batch;
    batch = [];
    result.checked += keys.length;
    const orphans = await unreferenced(db, keys);
    for (const key of orphans) await store.delete(key);
    result.orphans += orphans.length;
  };
  for await (const { key, temporary } of store.scan(before)) {
    if (temporary) {
      await store.delete(key);
      result.temporaries++;
      continue;
    }
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return result;
}
