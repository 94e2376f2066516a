// What a monitor will cost before it starts: one AI call per tick (a detection, a count or a caption), so
// 60 / interval calls a minute, and how long the user's free calls last at that pace — or that their own key
// pays, or nothing about free calls when the server has no shared key (key-less mode).
import { FREE_SHARED_CALLS } from "#app/schemas/vision";

export interface CallBudget {
  hasOwnKey: boolean;
  /** Whether free calls exist (a shared key is configured); null while unknown. */
  sharedKey: boolean | null;
  used: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function lasting(minutes: number): string {
  if (minutes < 120) return `about ${plural(Math.max(1, Math.round(minutes)), "minute")}`;
  return `about ${plural(Math.round(minutes / 60), "hour")}`;
}

/** e.g. "about 12 calls a minute: your 77 free calls last about 6 minutes"; null for an interval that is no number. */
export function monitorCost(intervalSeconds: number, budget: CallBudget): string | null {
  if (!Number.isFinite(intervalSeconds) || intervalSeconds <= 0) return null;
  const perMinute = 60 / intervalSeconds;
  const rate = perMinute >= 1 ? `about ${plural(Math.round(perMinute), "call")} a minute` : `about 1 call every ${lasting(intervalSeconds / 60).replace(/^about /, "")}`;
  if (budget.hasOwnKey) return `${rate}: uses your own key`;
  if (!budget.sharedKey) return rate;
  const left = Math.max(0, FREE_SHARED_CALLS - budget.used);
  if (left === 0) return `${rate}: your free calls are used up`;
  return `${rate}: your ${plural(left, "free call")} ${left === 1 ? "lasts" : "last"} ${lasting(left / perMinute)}`;
}
