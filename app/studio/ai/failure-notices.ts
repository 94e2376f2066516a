// AI failures: the spec logs them silently (a live loop must not bury the operator in toasts), but a
// few need the person to act — no key, free calls used up, key rejected, provider rate-limiting. Each
// of those is shown once, and again only after a call has succeeded since (so a fixed problem that
// comes back is news). The latest one stays readable in `store` for the AI tab. A loop call skipped because
// the key was busy is no failure at all (the loop just tries again next tick); free calls or today's pool
// used up are handed to `onQuotaSpent`, which stops the loops with one message of its own.
import { errorDetail, isAbort, problemType } from "../../lib/api/errors";
import { VISION_PROBLEM } from "../../schemas/vision";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

const ACTIONABLE: Record<string, string> = {
  [VISION_PROBLEM.noApiKey]: "AI needs an API key",
  [VISION_PROBLEM.freeCallsUsedUp]: "Free AI calls used up",
  [VISION_PROBLEM.keyRejected]: "API key rejected",
  [VISION_PROBLEM.rateLimited]: "AI is being rate-limited",
  [VISION_PROBLEM.freePoolUsedUp]: "Free AI calls used up for today",
};

/** The server skipped this call because the key was busy: the loop misses one tick, nothing to report. */
export function isSkippedTick(error: unknown): boolean {
  return problemType(error) === VISION_PROBLEM.busy;
}

export type QuotaSpent = typeof VISION_PROBLEM.freeCallsUsedUp | typeof VISION_PROBLEM.freePoolUsedUp;

export interface ActionableFailure {
  type: string;
  title: string;
  message: string;
}

export class AiFailureNotices {
  readonly store = createStore<{ current: ActionableFailure | null }>({ current: null });
  private shown = new Set<string>();

  constructor(private readonly notify: Notifier) {}

  /** The free calls (or today's pool) are spent: the engine stops the loops and says so once (else a toast here does). */
  onQuotaSpent?: (type: QuotaSpent) => void;

  /** Reports a failed AI call made by `feature` ("Caption", "Box detection", …). */
  report(feature: string, error: unknown): void {
    if (isAbort(error)) return;
    if (isSkippedTick(error)) {
      console.debug(`${feature}: skipped a round, the key was busy`);
      return;
    }
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
    if (this.onQuotaSpent && (type === VISION_PROBLEM.freeCallsUsedUp || type === VISION_PROBLEM.freePoolUsedUp)) return this.onQuotaSpent(type);
    this.notify.toast({ title, description: failure.message, variant: "destructive" });
  }

  /** A call went through: whatever blocked AI is over. */
  succeeded(): void {
    if (!this.shown.size && !this.store.get().current) return;
    this.shown.clear();
    this.store.set({ current: null });
  }
}
