// A value for a jsonb column: its JSON text cast on the server. postgres.js would encode a string parameter once more,
// storing a JSON string instead of the object (db/schema.ts types these columns' inserts as that text).
import { sql, type RawBuilder } from "kysely";

export function jsonb(value: unknown): RawBuilder<string> {
  return sql<string>`${JSON.stringify(value)}::text::jsonb`;
}
