// PostgreSQL breaks a deadlock by aborting one of the transactions in it (40P01, "deadlock detected") and leaves it to
// the application to run that one again. A cascade delete takes a parent row first and its children after, while
// background writers hold a child row and then check its parent: the Insights rollup holds its queued hours of a
// camera and then inserts rows referencing the camera and its owner, webhook outcomes hold their deliveries and then
// record timeline rows. Deleting an account or a camera meanwhile can close the circle, and either side may be the one
// aborted; the background jobs retry themselves, and the deletions run through this.

/** A transaction's SQLSTATE when PostgreSQL aborted it to break a deadlock. */
const DEADLOCK_DETECTED = "40P01";

/** Runs `work` (one statement or a whole transaction of its own, never a step inside a caller's) again when it lost a deadlock. */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || (error as { code?: unknown }).code !== DEADLOCK_DETECTED) throw error;
    }
  }
}
