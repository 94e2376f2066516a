// AI failures: the spec logs them silently (a live loop must not bury the operator in toasts), but a
// few need the person to act — no key, free calls used up, key rejected, provider rate-limiting. Each
// of those is shown once, and again only after a call has succeeded since (so a fixed problem that
// comes back is news). The latest one stays readable in `store` for the AI tab.
import { errorDetail, isAbort, problemType } from "../../lib/api-client";
import { VISION_PROBLEM } from "../../schemas/vision";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

const ACTIONABLE: Record<string, string> = {
  [VISION_PROBLEM.noApiKey]: "AI needs an API key",
  [VISION_PROBLEM.freeCallsUsedUp]: "Free AI calls used up",
  [VISION_PROBLEM.keyRejected]: "API key rejected",
  [VISION_PROBLEM.rateLimited]: "AI is being rate-limited",
};

export interface ActionableFailure {
  type: string;
  title: string;
  message: string;
}

export class AiFailureNotices {
  readonly store = createStore<{ current: ActionableFailure | null }>({ current: null });
  private shown = new Set<string>();

  constructor(private readonly notify: Notifier) {}

  /** Reports a failed AI call made by `feature` ("Caption", "Box detection", …). */
  report(feature: string, error: unknown): void {
    if (isAbort(error)) return;
    const type = problemType(error);
    const title = type ? ACTIONABLE[type] : undefined;
    if (!type || !title) {
      console.warn(`${feature} failed:`, errorDetail(error, "unknown error"));
      return;
    }
    const failure = { type, title, message: errorDetail(error, title) };
    this.store.set({ current: failure });
    if (this.shown.has(type)) return;
    this.shown.add(type);
    this.notify.toast({ title, description: failure.message, variant: "destructive" });
  }

  /** A call went through: whatever blocked AI is over. */
  succeeded(): void {
    if (!this.shown.size && !this.store.get().current) return;
    this.shown.clear();
    this.store.set({ current: null });
  }
}
