// The browser's calls on the webhook settings, signing secret and delivery log (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody } from "./call";

export const webhooksApi = {
  settings: () => call(api.webhooks.settings),
  saveSettings: (body: OperationBody<typeof api.webhooks.saveSettings>) => call(api.webhooks.saveSettings, { body }),
  sendTest: () => call(api.webhooks.sendTest),
  secret: () => call(api.webhooks.secret),
  rotateSecret: () => call(api.webhooks.rotateSecret),
  deliveries: () => call(api.webhooks.deliveries),
};
