// The last 20 deliveries (event, time, status, attempts) and, if delivery switched the webhook off, why.
import { useEffect } from "react";
import { Button } from "../../ui/button";
import { useStore, useStudio } from "../studio-context";

const STATUS_STYLE: Record<string, string> = {
  delivered: "text-emerald-400",
  failed: "text-red-400",
  cancelled: "text-slate-400",
  retrying: "text-amber-400",
  pending: "text-slate-300",
};

export function DeliveryLog() {
  const { webhooks } = useStudio().automation;
  const log = useStore(webhooks.store, (s) => s.deliveries);
  useEffect(() => void webhooks.refreshDeliveries(), [webhooks]);

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <h4 className="text-sm font-medium text-slate-200">Recent deliveries</h4>
        <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => void webhooks.refreshDeliveries()}>
          Refresh
        </Button>
      </div>
      {log?.disabled ? (
        <p role="alert" className="rounded border border-red-700 bg-red-950/50 p-2 text-xs text-red-200">
          Webhook switched off {new Date(log.disabled.at).toLocaleString()}: {log.disabled.reason}. Fix the receiver, then turn the webhook on and save.
        </p>
      ) : null}
      {log && log.deliveries.length === 0 ? <p className="text-xs text-slate-400">No deliveries yet</p> : null}
      {log && log.deliveries.length > 0 ? (
        <table className="w-full text-left text-xs" aria-label="Recent deliveries">
          <thead className="text-slate-400">
            <tr>
              <th className="py-1 font-medium">Event</th>
              <th className="py-1 font-medium">Time</th>
              <th className="py-1 font-medium">Status</th>
              <th className="py-1 font-medium">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {log.deliveries.map((delivery) => (
              <tr key={delivery.id} className="border-t border-ink-800 align-top" title={delivery.lastError ?? undefined}>
                <td className="py-1 pr-1 text-slate-200">{delivery.event}</td>
                <td className="py-1 pr-1 text-slate-400">{new Date(delivery.createdAt).toLocaleTimeString()}</td>
                <td className={`py-1 pr-1 ${STATUS_STYLE[delivery.status] ?? ""}`}>
                  {delivery.status}
                  {delivery.responseStatus ? ` (${delivery.responseStatus})` : ""}
                  {delivery.lastError && delivery.status !== "delivered" ? <span className="block text-slate-500">{delivery.lastError}</span> : null}
                </td>
                <td className="py-1 text-slate-300">{delivery.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
