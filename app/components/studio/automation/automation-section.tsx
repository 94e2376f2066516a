// The Automate tab's automation block: webhook settings, signing secret, delivery log, alerts, and monitors.
import { useState } from "react";
import { AlertRules } from "./alert-rules";
import { DeliveryLog } from "./delivery-log";
import { MonitorsSection } from "./monitors-section";
import { WebhookForm } from "./webhook-form";
import { WebhookSecret } from "./webhook-secret";

export function AutomationSection() {
  const [refreshKey, setRefreshKey] = useState(0);
  return (
    <>
      <section className="space-y-3" aria-labelledby="automate-webhook-heading">
        <h3 id="automate-webhook-heading" className="text-sm font-semibold text-white">
          Webhook integration
        </h3>
        <WebhookForm onChanged={() => setRefreshKey((k) => k + 1)} />
        <WebhookSecret />
        <DeliveryLog refreshKey={refreshKey} />
      </section>
      <section className="space-y-3" aria-labelledby="automate-alerts-heading">
        <h3 id="automate-alerts-heading" className="text-sm font-semibold text-white">
          E-mail and SMS alerts
        </h3>
        <AlertRules />
      </section>
      <MonitorsSection />
    </>
  );
}
