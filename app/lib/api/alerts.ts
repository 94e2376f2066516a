// The browser's calls on alert contacts and rules (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import type { AlertChannel } from "../../schemas/automation";
import { call, type OperationBody } from "./call";

export const alertsApi = {
  status: () => call(api.alerts.status),
  startContact: (body: OperationBody<typeof api.alerts.startContact>) => call(api.alerts.startContact, { body }),
  verifyContact: (body: OperationBody<typeof api.alerts.verifyContact>) => call(api.alerts.verifyContact, { body }),
  removeContact: (channel: AlertChannel) => call(api.alerts.removeContact, { params: { channel } }),
  rules: () => call(api.alerts.rules),
  createRule: (body: OperationBody<typeof api.alerts.createRule>) => call(api.alerts.createRule, { body }),
  removeRule: (id: string) => call(api.alerts.removeRule, { params: { id } }),
};
