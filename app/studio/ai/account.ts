// The signed-in user as the AI tab shows it: whether they have their own key, how many of the free
// shared-key calls they have used, and whether the shared key's pool is spent for today. Starts from the
// page loader's copy, is refreshed (GET /api/moondream/free-calls) after a key is saved and after AI calls
// (at most every few seconds) so "N of 100 free calls used" keeps up with the loops, and every
// ACCOUNT_POLL_MS while the page is visible (and when it is shown again): monitors and other tabs spend free calls
// too, and only the server counts them all. Every change of the count or the pool is handed to `onUsage` (the
// engine warns at 80 and stops the loops when spent).
import { errorDetail } from "../../lib/api/errors";
import { visionApi } from "../../lib/api/vision";
import type { CurrentUser } from "../../schemas/auth";
import type { FreeCalls } from "../../schemas/vision";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

/** Refreshing the user after calls waits at least this long between requests. */
export const ACCOUNT_REFRESH_GAP_MS = 4000;
/** While the page is visible, the server's count is reread this often. */
export const ACCOUNT_POLL_MS = 10_000;

export type SaveKeyResult = "saved" | "invalid" | "failed";

export interface UsageChange {
  before: number;
  after: number;
  hasKey: boolean;
  poolExhausted: boolean;
}

export class AiAccount {
  readonly store;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastRefresh = 0;
  private disposed = false;
  private poll: ReturnType<typeof setInterval> | null = null;
  private readonly onShown = () => {
    if (!document.hidden) void this.refresh();
  };

  constructor(
    user: CurrentUser | null,
    private readonly notify: Notifier,
    private readonly onKeySaved: () => void = () => {},
  ) {
    // sharedKey: whether free calls exist at all (null until the first refresh: say nothing about them meanwhile).
    this.store = createStore<{ user: CurrentUser | null; saving: boolean; poolExhausted: boolean; sharedKey: boolean | null }>({
      user,
      saving: false,
      poolExhausted: false,
      sharedKey: null,
    });
    if (user && typeof document !== "undefined") {
      this.poll = setInterval(() => {
        if (!document.hidden) void this.refresh();
      }, ACCOUNT_POLL_MS);
      document.addEventListener("visibilitychange", this.onShown);
    }
  }

  /** Told of every refresh: the used count before and after, and the pool. */
  onUsage: (change: UsageChange) => void = () => {};

  async refresh(): Promise<void> {
    this.lastRefresh = Date.now();
    try {
      const status: FreeCalls = await visionApi.freeCalls();
      const { user } = this.store.get();
      if (this.disposed || !user) return;
      const before = user.sharedKeyUsageCount;
      this.store.set({
        user: { ...user, hasMoondreamApiKey: status.hasMoondreamApiKey, sharedKeyUsageCount: status.used },
        poolExhausted: status.poolExhausted,
        sharedKey: status.sharedKey,
      });
      this.onUsage({ before, after: status.used, hasKey: status.hasMoondreamApiKey, poolExhausted: status.poolExhausted });
    } catch (error) {
      console.warn("Could not refresh the current user:", errorDetail(error, "unknown error"));
    }
  }

  /** Told of every AI call noted, own key or not (the engine refreshes the calls per feature). */
  onCall: () => void = () => {};

  /** An AI call went out (it may have spent a free call): refresh soon, coalescing a busy loop's calls. */
  noteCall(): void {
    this.onCall();
    if (this.disposed || this.timer || this.store.get().user?.hasMoondreamApiKey) return;
    const wait = Math.max(0, this.lastRefresh + ACCOUNT_REFRESH_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.refresh();
    }, wait);
  }

  /** Saves the user's own key with the spec's toasts; blank or whitespace never reaches the server. */
  async saveKey(apiKey: string): Promise<SaveKeyResult> {
    if (!apiKey.trim()) {
      this.notify.toast({ title: "Invalid Key", description: "Please enter a valid API key", variant: "destructive" });
      return "invalid";
    }
    if (this.store.get().saving) return "failed";
    this.store.set({ saving: true });
    try {
      await visionApi.saveApiKey(apiKey.trim());
      this.notify.toast({ title: "API Key Saved", description: "Your Moondream API key has been saved." });
      this.onKeySaved();
      await this.refresh();
      return "saved";
    } catch (error) {
      this.notify.toast({ title: "Failed to Save", description: errorDetail(error, "Could not save API key"), variant: "destructive" });
      return "failed";
    } finally {
      this.store.set({ saving: false });
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (typeof document !== "undefined") document.removeEventListener("visibilitychange", this.onShown);
  }
}
