// The queue's task list: each task reads its rows by id, so job payloads stay tiny and hold no secrets.
import type { Task } from "graphile-worker";
import { createDb, type DB } from "../../db/index";
import { sendAlert } from "../alerts/service";
import { deliverWebhook } from "../webhooks/delivery";
import { startQueue, stopQueue, type TaskName } from "./queue";

let workerDb: DB | undefined;

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

export async function startAutomation(connectionString: string, concurrency: number): Promise<void> {
  const dbForJobs = createDb(connectionString, concurrency, { synchronous_commit: "off" });
  workerDb = dbForJobs;
  const tasks: Record<TaskName, Task> = {
    deliver_webhook: async (payload) => deliverWebhook(dbForJobs, payload as { deliveryId: string; attempt: number }),
    send_alert: async (payload) => sendAlert(dbForJobs, payload as Parameters<typeof sendAlert>[1]),
  };
  await startQueue({ connectionString: withAsyncCommit(connectionString), concurrency, tasks });
}

export async function stopAutomation(): Promise<void> {
  await stopQueue();
  await workerDb?.destroy();
  workerDb = undefined;
}
