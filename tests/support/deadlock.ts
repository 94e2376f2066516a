// A deadlock made on purpose between a deletion the app runs and a writer the test plays, the way a background writer
// meets a cascade delete: the writer holds a row the deletion's cascade needs, the deletion starts and waits for it,
// then the writer refers to the row the deletion has already taken. PostgreSQL aborts the one that waited first, the
// deletion (the writer's own deadlock check is put off), so what the app does then is what the test sees.
import postgres from "postgres";
import { inject } from "vitest";
import { until } from "./webhook-receiver";

export async function holdRowThenReferTo(options: {
  /** Locks a row the deletion's cascade will need. */
  hold: (tx: postgres.TransactionSql) => Promise<unknown>;
  /** A piece of the deletion's SQL, to see it waiting in pg_stat_activity. */
  deletion: string;
  /** Starts the deletion (an HTTP request); its response is what this returns. */
  start: () => Promise<Response>;
  /** Writes a row that refers to the row the deletion took first. */
  refer: (tx: postgres.TransactionSql) => Promise<unknown>;
}): Promise<Response> {
  const writer = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  const watcher = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  try {
    let deletion: Promise<Response> | undefined;
    await writer.begin(async (tx) => {
      await tx`set local deadlock_timeout = '30s'`;
      await options.hold(tx);
      deletion = options.start();
      await until(
        async () => (await watcher`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like ${`%${options.deletion}%`}`)[0]!.n,
        (n) => n > 0,
        10_000,
      );
      // Waits for the deletion's row, and gets it once PostgreSQL has aborted the deletion (this throws otherwise).
      await options.refer(tx);
    });
    return await deletion!;
  } finally {
    await Promise.all([writer.end(), watcher.end()]);
  }
}
