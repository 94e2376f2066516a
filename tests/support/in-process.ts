// Calls server services directly, in the test process, against the shared app's database and blob
// directory — for service functions no HTTP route exposes yet (e.g. the vision service's snapshot intake).
import { inject } from "vitest";

let ready: Promise<void> | undefined;

export function useSharedDatabase(): Promise<void> {
  ready ??= (async () => {
    process.env.DATA_DIR = inject("dataDir");
    process.env.LOG_LEVEL = "silent";
    const { initDb } = await import("#db/index");
    initDb(inject("databaseUrl"), 2);
    // As an app process does at start-up: the services' domain events reach the webhook outbox and alert rules.
    (await import("#server/automation/listeners")).registerListeners();
  })();
  return ready;
}
