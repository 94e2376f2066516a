// The queue's task list: each task reads its rows by id, so job payloads stay tiny and hold no secrets.
import type { Task } from "graphile-worker";
import { db } from "../../db/index";
import { sendAlert } from "../alerts/service";
import { deliverWebhook } from "../webhooks/delivery";
import { startQueue, stopQueue, type TaskName } from "./queue";

const tasks: Record<TaskName, Task> = {
  deliver_webhook: async (payload) => deliverWebhook(db(), payload as { deliveryId: string; attempt: number }),
  send_alert: async (payload) => sendAlert(db(), payload as Parameters<typeof sendAlert>[1]),
};

export function startAutomation(connectionString: string, concurrency: number): Promise<void> {
  return startQueue({ connectionString, concurrency, tasks });
}

export const stopAutomation = stopQueue;
