// Who hears the domain events (server/events.ts), in the order they run on the emitter's transaction. The one list:
// a new listener (MQTT, reports) is added here, and its module stays out of the domain services' imports.
import { setListeners, type Listener } from "../events";
import { alertListener } from "../alerts/listener";
import { webhookListener } from "../webhooks/listener";
import { timelineListener } from "../timeline/listener";
import { savedSearchListener } from "./saved-search-listener";

export const listeners: readonly Listener[] = [webhookListener, alertListener, timelineListener, savedSearchListener];

/**
 * Called first by the composition root (createServer in server/composition.ts), which starts every process that serves
 * requests or runs jobs, and by tests that call domain services in their own process; emit throws until it has been.
 */
export function registerListeners(): void {
  setListeners(listeners);
}
