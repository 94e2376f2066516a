// The Automate tab's automation block: webhook settings, signing secret, delivery log, alerts, and monitors.
import { AlertRules } from "./alert-rules";
import { DeliveryLog } from "./delivery-log";
import { MonitorsSection } from "./monitors-section";
import { WebhookForm } from "./webhook-form";
import { WebhookSecret } from "./webhook-secret";

export function AutomationSection() {
  return (
    <>
      <section className="space-y-3" aria-labelledby="automate-webhook-heading">
        <h3 id="automate-webhook-heading" className="text-sm font-semibold text-white">
          Webhook integration
        </h3>
        <WebhookForm />
        <WebhookSecret />
        <DeliveryLog />
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
