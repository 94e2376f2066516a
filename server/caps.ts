// Per-owner caps (a user's monitors and alert rules, a camera's zones and lines) that hold under a parallel burst
// and across app processes: the database decides, not any process's memory.
//
// Why a lock: counting and then inserting is a race even in one statement. `INSERT … SELECT … WHERE (SELECT count(*)
// …) < cap` under READ COMMITTED counts from the statement's snapshot, which misses rows that parallel transactions
// have inserted but not yet committed, so 30 requests can all count 19 and all insert. Here each create runs in a
// transaction that first takes a transaction-scoped advisory lock keyed on (resource, owner): creates for the same
// owner and resource queue in PostgreSQL, whichever process sent them. The count runs after the lock is granted, so
// it is a new statement with a new snapshot that sees every row the previous holder committed (a transaction's rows
// are visible before its locks are released), and the lock goes away with the transaction, even a failed one.
// Deletes need no lock: they only make room.
import { sql } from "kysely";
import type { DB } from "#db/index";
import { ProblemError } from "./errors";

/** The advisory lock's first key: "FW" and 3 (server/cameras/stream/presence.ts holds 1 and 2). */
const CAPS_NAMESPACE = 0x4657_0003;

export interface Cap {
  /** What is capped, e.g. "monitors" or "vision_zones"; with `owner`, the lock's key. */
  resource: string;
  /** Whose rows are counted: a user's or a camera's id. */
  owner: string;
  max: number;
  /** The 409's detail once the owner has `max`. */
  refusal: string;
  /** Counts the owner's rows, in the transaction. */
  count(trx: DB): Promise<number>;
}

/**
 * Runs `create` (everything the new row needs, on `trx`) only while the owner has fewer than `cap.max` rows, else
 * refuses with 409. Two owners hashing to the same key only wait for each other; they never share a count.
 */
export function createWithinCap<T>(db: DB, cap: Cap, create: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CAPS_NAMESPACE}::int, hashtext(${`${cap.resource}:${cap.owner}`}))`.execute(trx);
    if ((await cap.count(trx)) >= cap.max) throw new ProblemError(409, cap.refusal);
    return create(trx);
  });
}
