// The pace slots of every key in PostgreSQL, so all app processes on one database book from one timeline.
// One statement per call, on the database's clock (app servers' clocks may disagree).
import type { DB } from "#db/index";
import type { SlotBook } from "./pacer";
import { bookPaceSlot, holdOffPaceSlots } from "./queries";

export class PostgresSlotBook implements SlotBook {
  constructor(private readonly db: () => DB) {}

  book(keyHash: string, intervalMs: number, withinMs?: number): Promise<{ booked: boolean; waitMs: number }> {
    return bookPaceSlot(this.db(), keyHash, intervalMs, withinMs ?? null);
  }

  holdOff(keyHash: string, ms: number): Promise<void> {
    return holdOffPaceSlots(this.db(), keyHash, ms);
  }
}
