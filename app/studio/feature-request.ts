// The Feature Request dialog's request (one of the view's dialogs): sends a title and description, says whether it
// went, and is pending meanwhile. Framework-free: the dialog keeps what is typed and subscribes to `store`.
import type { featureRequestsApi } from "../lib/api/feature-requests";
import type { Notifier } from "./notifier";
import { createStore } from "./store";

export type FeatureRequestsApi = Pick<typeof featureRequestsApi, "create">;

export class FeatureRequestController {
  readonly store = createStore<{ pending: boolean }>({ pending: false });

  constructor(
    private readonly api: FeatureRequestsApi,
    private readonly notify: Notifier,
  ) {}

  /** Sends the request; true once it is stored (the dialog then clears and closes). */
  async submit(title: string, description: string): Promise<boolean> {
    if (title.trim() === "" || description.trim() === "") return false;
    this.store.set({ pending: true });
    try {
      await this.api.create(title.trim(), description.trim());
      this.notify.toast({ title: "Request Submitted", description: "Thank you for your feature suggestion!" });
      return true;
    } catch {
      this.notify.toast({ title: "Error", description: "Failed to submit feature request", variant: "destructive" });
      return false;
    } finally {
      this.store.set({ pending: false });
    }
  }
}
