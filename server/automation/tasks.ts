// The queue's task list: each task reads its rows by id, so job payloads stay tiny and hold no secrets.
import type { Task } from "graphile-worker";
import { createDb } from "#db/index";
import { sendAlert } from "../alerts/service";
import type { Mailer } from "../alerts/transports";
import { resumePtzChecks, runPtzCheck, type PtzCheckJob } from "../cameras/ptz-check";
import { releaseAllHolds } from "../monitors/holds";
import { runTick, sweepMonitors } from "../monitors/runner";
import { watchTakeovers } from "../monitors/takeover";
import { drainDeliveries, resumeDeliveries, stopDeliveries } from "../webhooks/dispatcher";
import { rebuildDays, runRollups } from "../insights/rollup";
import { rebuildSiteHours } from "../insights/site-hours";
import { startQueue, type TaskName } from "../jobs/queue";
import { sendDueReports } from "./insight-reports";
import { logger } from "../logger";
import type { MonitorFrames } from "../monitors/frames";
import type { PtzService } from "../ptz/service";
import type { BlobStore } from "../storage/blob-store";
import type { Vision } from "../vision/service";

/**
 * The worker's connections commit asynchronously (synchronous_commit off): a delivery's status and the
 * job's completion then cost no WAL flush each. A database crash can forget the last few of those commits
 * (WAL keeps their order), which makes a delivery run again — at-least-once with the same webhook-id,
 * which receivers deduplicate — but never loses an event: events are queued by the app's own, durable pool.
 */
function withAsyncCommit(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", "-c synchronous_commit=off");
  return parsed.toString();
}

/**
 * Every minute, any process sweeps the webhook outbox: a backstop for rows nobody was woken for (a process that
 * dies unlocks its rows at once, and its own wake-up job stays locked by graphile-worker for hours; the drains of
 * live processes look again a few seconds after ending while other processes hold due rows).
 */
const CRONTAB = "* * * * * deliver_webhooks\n* * * * * monitor_sweep\n* * * * * insights_rollup\n* * * * * insight_reports\n";

/** What the tasks work with, built by the composition root (server/composition.ts). */
export interface AutomationOptions {
  connectionString: string;
  concurrency: number;
  ptz: PtzService;
  /** Where monitors take their frames and hold their cameras' streams (the stream supervisor). */
  frames: MonitorFrames;
  /** Monitors' AI calls: the vision client and its key pacer. */
  vision: Vision;
  /** Where monitors' photos and snapshots go. */
  blobs: BlobStore;
  /** Alerts' e-mail. */
  mailer: Mailer;
}

/**
 * Starts the queue's worker on its own pool; `stop` lets running jobs finish, then closes that pool. The domain events
 * its tasks emit need the listeners registered first (registerListeners, by the composition root).
 */
export async function startAutomation({ connectionString, concurrency, ptz, frames, vision, blobs, mailer }: AutomationOptions): Promise<{ stop: () => Promise<void> }> {
  // The webhook drain's open batches (one transaction each, server/webhooks/dispatcher.ts) and at least two more for
  // a failure's own transaction, a secret and the end of a failure run.
  const dbForJobs = createDb(connectionString, Math.min(concurrency, 8) + 2, { synchronous_commit: "off" });
  resumeDeliveries();
  const tasks: Record<TaskName, Task> = {
    deliver_webhooks: async () => drainDeliveries(dbForJobs),
    // Jobs queued per delivery before the outbox: the row is due, so a drain sends it.
    deliver_webhook: async () => drainDeliveries(dbForJobs),
    send_alert: async (payload) => sendAlert(dbForJobs, mailer, payload as Parameters<typeof sendAlert>[2]),
    // Monitors (server/monitors/): one tick per job, each booking the next; the sweep re-books lost ones.
    monitor_tick: async (payload, helpers) => runTick(dbForJobs, { frames, vision, blobs }, (payload as { monitorId: string }).monitorId, helpers.abortSignal),
    monitor_sweep: async () => {
      await sweepMonitors(dbForJobs);
    },
    // An IP camera's PTZ, looked for after it was added (server/cameras/ptz-check.ts).
    camera_ptz: async (payload) => runPtzCheck(dbForJobs, ptz, payload as PtzCheckJob),
    // Insights' rollups of the per-minute counts (server/insights/rollup.ts); the crontab's run is a backstop.
    insights_rollup: async () => {
      await runRollups(dbForJobs);
    },
    insights_rebuild_days: async (payload) => rebuildDays(dbForJobs, (payload as { cameraId: string }).cameraId),
    insights_rebuild_site: async (payload) => rebuildSiteHours(dbForJobs, (payload as { siteId: string }).siteId),
    // Scheduled Insights e-mails that are due (./insight-reports.ts): each claimed by one run only.
    insight_reports: async () => {
      await sendDueReports(dbForJobs, mailer);
    },
  };
  const stopQueue = await startQueue({ connectionString: withAsyncCommit(connectionString), concurrency, tasks, crontab: CRONTAB });
  // Rows left due by a previous run (a stop mid-burst hands its rows back) start moving at once. A drain of this
  // process's own, not a wake-up job that another process's running drain could absorb: when the rows are another
  // live process's, this drain's look-again timer is what takes them over should that process die.
  drainDeliveries(dbForJobs).catch((error: unknown) => logger.warn({ err: error }, "webhook deliveries: the start-up drain failed; the sweep retries"));
  // Running monitors whose tick job was lost (a crash) run again now rather than at the first sweep.
  await sweepMonitors(dbForJobs);
  // PTZ checks a stopped process left unfinished.
  await resumePtzChecks(dbForJobs);
  // With other processes on the database: a dead one's monitors run here within seconds.
  const stopTakeovers = watchTakeovers(dbForJobs);
  return {
    async stop() {
      stopDeliveries();
      stopTakeovers();
      await stopQueue();
      releaseAllHolds();
      await dbForJobs.destroy();
    },
  };
}
