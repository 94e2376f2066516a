// The pace slots of every key in PostgreSQL, so all app processes on one database book from one timeline.
// One statement per call, on the database's clock (app servers' clocks may disagree).
import { sql } from "kysely";
import type { DB } from "../../db/index";
import type { SlotBook } from "./pacer";

export class PostgresSlotBook implements SlotBook {
  constructor(private readonly db: () => DB) {}

  async book(keyHash: string, intervalMs: number, withinMs?: number): Promise<{ booked: boolean; waitMs: number }> {
    // The row lock of the upsert orders concurrent bookers; clock_timestamp() is read after it is taken.
    const within = withinMs ?? null;
    const { rows } = await sql<{ wait_ms: number }>`
      insert into vision_pace_slots as p (key_hash, next_slot)
      values (${keyHash}, clock_timestamp() + ${intervalMs} * interval '1 millisecond')
      on conflict (key_hash) do update
        set next_slot = greatest(clock_timestamp(), p.next_slot) + ${intervalMs} * interval '1 millisecond'
        where ${within}::float8 is null or p.next_slot <= clock_timestamp() + ${within}::float8 * interval '1 millisecond'
      returning (extract(epoch from (next_slot - clock_timestamp())) * 1000)::float8 - ${intervalMs} as wait_ms`.execute(this.db());
    if (rows[0]) return { booked: true, waitMs: Math.max(0, rows[0].wait_ms) };
    const taken = await sql<{ wait_ms: number }>`
      select (extract(epoch from (next_slot - clock_timestamp())) * 1000)::float8 as wait_ms from vision_pace_slots where key_hash = ${keyHash}`.execute(this.db());
    return { booked: false, waitMs: Math.max(0, taken.rows[0]?.wait_ms ?? 0) };
  }

  async holdOff(keyHash: string, ms: number): Promise<void> {
    await sql`
      insert into vision_pace_slots as p (key_hash, next_slot) values (${keyHash}, clock_timestamp() + ${ms} * interval '1 millisecond')
      on conflict (key_hash) do update set next_slot = greatest(p.next_slot, excluded.next_slot)`.execute(this.db());
  }
}
