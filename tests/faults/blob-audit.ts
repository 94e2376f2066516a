// Compares the blob directory with the rows that refer to it: rows whose blobs are missing, files no row refers
// to, and leftover temporary files of interrupted writes.
import { readdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

export interface BlobAudit {
  rows: number;
  files: number;
  /** Keys a row refers to that are not on disk. */
  missing: string[];
  /** Files on disk no row refers to (orphans). */
  unreferenced: string[];
  /** Interrupted writes' temporary files. */
  temporaries: string[];
}

export function filesUnder(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
  } catch {
    return [];
  }
}

export async function auditBlobs(databaseUrl: string, blobDir: string): Promise<BlobAudit> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<Array<{ image_key: string; thumbnail_key: string }>>`
      select image_key, thumbnail_key from photos
      union all select image_key, thumbnail_key from count_snapshots
      union all select image_key, thumbnail_key from cameras where image_key is not null`;
    const referenced = new Set(rows.flatMap((r) => [r.image_key, r.thumbnail_key]).filter(Boolean));
    const files = filesUnder(blobDir);
    const onDisk = new Set(files);
    const temporaries = files.filter((f) => path.basename(f).startsWith(".tmp-"));
    return {
      rows: rows.length,
      files: files.length,
      missing: [...referenced].filter((key) => !onDisk.has(key)),
      unreferenced: files.filter((f) => !referenced.has(f) && !temporaries.includes(f)),
      temporaries,
    };
  } finally {
    await sql.end();
  }
}

export async function countPhotoRows(databaseUrl: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [{ count }] = await sql<[{ count: number }]>`select count(*)::int as count from photos where id = any(${ids}::uuid[])`;
    return count;
  } finally {
    await sql.end();
  }
}
