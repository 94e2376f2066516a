// The Automate tab's webhook block as the studio engine holds it: the saved settings and the form's draft of them,
// the signing secret once asked for, and the delivery log. Framework-free; the webhook form, secret and delivery
// log components subscribe to `store` and call these methods (they load when the tab shows them, as before).
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import type { webhooksApi } from "../../lib/api/webhooks";
import type { WebhookDeliveries } from "../../schemas/automation";
import type { WebhookSettings } from "../../schemas/webhooks";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

export interface WebhookDraft {
  url: string;
  enabled: boolean;
  eventType: WebhookSettings["webhookEventType"];
}

export interface WebhooksState {
  saved: WebhookSettings | null;
  draft: WebhookDraft;
  /** Fields stay disabled until the saved settings arrive: typing earlier would be overwritten by them. */
  loaded: boolean;
  /** The server's reason for refusing the URL (e.g. a private address), shown under the field. */
  urlError: string | undefined;
  saving: boolean;
  testing: boolean;
  /** Shown only once asked for. */
  secret: string | null;
  secretBusy: boolean;
  deliveries: WebhookDeliveries | null;
}

export type WebhooksApi = typeof webhooksApi;

const EMPTY_DRAFT: WebhookDraft = { url: "", enabled: false, eventType: "simple" };

export class WebhooksController {
  readonly store = createStore<WebhooksState>({
    saved: null,
    draft: EMPTY_DRAFT,
    loaded: false,
    urlError: undefined,
    saving: false,
    testing: false,
    secret: null,
    secretBusy: false,
    deliveries: null,
  });

  constructor(
    private readonly api: WebhooksApi,
    private readonly notify: Notifier,
  ) {}

  /** Reads the saved settings into a fresh draft (the form calls it each time it shows). */
  async loadSettings(): Promise<void> {
    this.store.set({ draft: EMPTY_DRAFT, loaded: false, urlError: undefined });
    try {
      const settings = await this.api.settings();
      this.store.set({ saved: settings, draft: { url: settings.webhookUrl ?? "", enabled: settings.webhookEnabled, eventType: settings.webhookEventType } });
    } catch (error) {
      console.warn("Failed to load webhook settings", error);
    } finally {
      this.store.set({ loaded: true });
    }
  }

  edit(change: Partial<WebhookDraft>): void {
    this.store.set((state) => ({ draft: { ...state.draft, ...change }, ...("url" in change ? { urlError: undefined } : {}) }));
  }

  private current(): WebhookSettings {
    const { draft } = this.store.get();
    return { webhookUrl: draft.url.trim() || null, webhookEnabled: draft.enabled, webhookEventType: draft.eventType };
  }

  /** Saves the draft; a refused URL shows under its field, anything else as a toast. */
  async save(): Promise<WebhookSettings | null> {
    this.store.set({ saving: true });
    try {
      const result = await this.api.saveSettings(this.current());
      this.store.set({ saved: result, urlError: undefined });
      void this.refreshDeliveries();
      return result;
    } catch (error) {
      const fieldError = problemFieldErrors(error).webhookUrl?.[0];
      this.store.set({ urlError: fieldError });
      if (!fieldError) this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to save webhook settings."), variant: "destructive" });
      return null;
    } finally {
      this.store.set({ saving: false });
    }
  }

  /** The form's Save: saves and says so. */
  async submit(): Promise<void> {
    if (await this.save()) this.notify.toast({ title: "Webhook settings saved" });
  }

  async test(): Promise<void> {
    const url = this.store.get().draft.url.trim();
    if (!url) {
      this.notify.toast({ title: "No webhook URL", description: "Please enter a webhook URL first.", variant: "destructive" });
      return;
    }
    this.store.set({ testing: true });
    try {
      // The server tests the saved URL: save an edited one first so the test checks what is on screen.
      if (this.store.get().saved?.webhookUrl !== url && !(await this.save())) return;
      const result = await this.api.sendTest();
      if (result.success) this.notify.toast({ title: "Test successful", description: `The receiver answered ${result.receiverStatus}.` });
      else this.notify.toast({ title: "Test failed", description: result.message, variant: "destructive" });
    } catch (error) {
      this.notify.toast({ title: "Test failed", description: errorDetail(error, "Failed to send test webhook."), variant: "destructive" });
    } finally {
      this.store.set({ testing: false });
      void this.refreshDeliveries();
    }
  }

  /** Shows the signing secret ("GET") or replaces it ("POST"). */
  async loadSecret(method: "GET" | "POST"): Promise<void> {
    this.store.set({ secretBusy: true });
    try {
      this.store.set({ secret: (await (method === "POST" ? this.api.rotateSecret() : this.api.secret())).secret });
      if (method === "POST") this.notify.toast({ title: "Signing secret replaced", description: "Update your receiver: events are now signed with the new secret." });
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to load the signing secret."), variant: "destructive" });
    } finally {
      this.store.set({ secretBusy: false });
    }
  }

  /** Hidden again when the secret's block goes away, so it is shown only when asked for. */
  hideSecret(): void {
    this.store.set({ secret: null });
  }

  async refreshDeliveries(): Promise<void> {
    try {
      this.store.set({ deliveries: await this.api.deliveries() });
    } catch (error) {
      console.warn("Failed to load deliveries", error);
    }
  }
}
