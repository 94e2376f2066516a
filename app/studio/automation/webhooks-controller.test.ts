// The webhook block's controller against an in-memory server: the saved settings become the draft, a save refreshes
// the delivery log, a refused URL shows under its field and any other problem as a toast, and Test saves an edited
// URL before testing it.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { WebhookDeliveries } from "../../schemas/automation";
import type { WebhookSettings } from "../../schemas/webhooks";
import type { Notifier } from "../notifier";
import { WebhooksController, type WebhooksApi } from "./webhooks-controller";

const problem = (status: number, body: object) => new ApiError(status, JSON.stringify(body), "");

function harness(options: { refuseSave?: ApiError } = {}) {
  let settings: WebhookSettings = { webhookUrl: "https://hooks.example.com/a", webhookEnabled: true, webhookEventType: "detailed" };
  const calls: string[] = [];
  const toasts: string[] = [];
  const deliveries: WebhookDeliveries = { deliveries: [], disabled: null };
  const api = {
    settings: async () => (calls.push("settings"), settings),
    saveSettings: async (body: WebhookSettings) => {
      calls.push(`save ${body.webhookUrl}`);
      if (options.refuseSave) throw options.refuseSave;
      return (settings = body);
    },
    sendTest: async () => (calls.push("test"), { success: true as const, receiverStatus: 204 }),
    secret: async () => ({ secret: "whsec_one" }),
    rotateSecret: async () => ({ secret: "whsec_two" }),
    deliveries: async () => (calls.push("deliveries"), deliveries),
  } as unknown as WebhooksApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}${t.description ? `: ${t.description}` : ""}`), alert: () => undefined };
  return { controller: new WebhooksController(api, notify), calls, toasts };
}

describe("WebhooksController", () => {
  it("loads the saved settings into the draft and enables the form", async () => {
    const { controller } = harness();
    expect(controller.store.get().loaded).toBe(false);
    await controller.loadSettings();
    expect(controller.store.get()).toMatchObject({ loaded: true, draft: { url: "https://hooks.example.com/a", enabled: true, eventType: "detailed" } });
  });

  it("saves the edited draft, says so and rereads the delivery log", async () => {
    const { controller, calls, toasts } = harness();
    await controller.loadSettings();
    controller.edit({ url: " https://hooks.example.com/b ", enabled: false });
    await controller.submit();
    expect(calls).toContain("save https://hooks.example.com/b");
    expect(controller.store.get().saved).toEqual({ webhookUrl: "https://hooks.example.com/b", webhookEnabled: false, webhookEventType: "detailed" });
    expect(toasts).toEqual(["Webhook settings saved"]);
    await Promise.resolve();
    expect(calls.at(-1)).toBe("deliveries");
  });

  it("shows a refused URL under its field, and clears it once the URL is edited", async () => {
    const { controller, toasts } = harness({ refuseSave: problem(422, { detail: "Invalid", errors: { webhookUrl: ["That address is private"] } }) });
    await controller.loadSettings();
    expect(await controller.save()).toBeNull();
    expect(controller.store.get().urlError).toBe("That address is private");
    expect(toasts).toEqual([]);
    controller.edit({ url: "https://hooks.example.com/c" });
    expect(controller.store.get().urlError).toBeUndefined();
  });

  it("shows any other refusal as a toast with the problem's detail", async () => {
    const { controller, toasts } = harness({ refuseSave: problem(503, { detail: "The database is busy" }) });
    await controller.loadSettings();
    await controller.submit();
    expect(toasts).toEqual(["Error: The database is busy"]);
    expect(controller.store.get().saving).toBe(false);
  });

  it("saves an edited URL before testing it, and tests nothing without a URL", async () => {
    const { controller, calls, toasts } = harness();
    await controller.loadSettings();
    controller.edit({ url: "https://hooks.example.com/d" });
    await controller.test();
    expect(calls.filter((c) => c !== "deliveries")).toEqual(["settings", "save https://hooks.example.com/d", "test"]);
    expect(toasts).toEqual(["Test successful: The receiver answered 204."]);
    controller.edit({ url: "  " });
    await controller.test();
    expect(toasts.at(-1)).toBe("No webhook URL: Please enter a webhook URL first.");
  });

  it("shows the signing secret when asked, replaces it, and hides it again", async () => {
    const { controller, toasts } = harness();
    await controller.loadSecret("GET");
    expect(controller.store.get().secret).toBe("whsec_one");
    await controller.loadSecret("POST");
    expect(controller.store.get().secret).toBe("whsec_two");
    expect(toasts).toEqual(["Signing secret replaced: Update your receiver: events are now signed with the new secret."]);
    controller.hideSecret();
    expect(controller.store.get().secret).toBeNull();
  });
});
