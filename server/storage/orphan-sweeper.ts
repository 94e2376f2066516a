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

/** Of `keys`, those no photo, count snapshot or camera row refers to. */
async function unreferenced(db: DB, keys: string[]): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    select k as key from unnest(${keys}::text[]) as k
    except select image_key from photos where image_key = any(${keys}::text[])
    except select thumbnail_key from photos where thumbnail_key = any(${keys}::text[])
    except select image_key from count_snapshots where image_key = any(${keys}::text[])
    except select thumbnail_key from count_snapshots where thumbnail_key = any(${keys}::text[])
    except select image_key from cameras where image_key = any(${keys}::text[])
    except select thumbnail_key from cameras where thumbnail_key = any(${keys}::text[])
  `.execute(db);
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
