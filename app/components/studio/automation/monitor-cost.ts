// What a monitor will cost before it starts, in AI calls an hour: a ticking monitor makes one call per tick (a
// detection, a count or a caption), so 3600 / interval an hour; a monitor on local vision makes none, or one
// description per photo, so at most one per minimum gap. Then how long the user's free calls last at that pace — or
// that their own key pays, or nothing about free calls when the server has no shared key (key-less mode).
import { FREE_SHARED_CALLS } from "#app/schemas/vision";

export interface CallBudget {
  hasOwnKey: boolean;
  /** Whether free calls exist (a shared key is configured); null while unknown. */
  sharedKey: boolean | null;
  used: number;
}

/** A ticking kind's interval, or a local-vision monitor's gap and whether it asks Moondream for a description. */
export type CostChoice = { local: false; intervalSeconds: number } | { local: true; describe: boolean; minGapSeconds: number };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function lasting(minutes: number): string {
  if (minutes < 120) return plural(Math.max(1, Math.round(minutes)), "minute");
  return plural(Math.round(minutes / 60), "hour");
}

/** "720 AI calls an hour", or for fewer than one an hour "1 AI call every 2 hours". */
function rate(perHour: number): string {
  return perHour >= 1 ? `${plural(Math.round(perHour), "AI call")} an hour` : `1 AI call every ${lasting(60 / perHour)}`;
}

/** "60 s", "5 min", "2 h": the minimum gap as the form's cost line says it. */
function gapText(seconds: number): string {
  if (seconds < 120 || seconds % 60 !== 0) return `${seconds} s`;
  if (seconds < 7200 || seconds % 3600 !== 0) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}

/** How long the free calls left last at `perHour` calls an hour (at least that long when it is a ceiling). */
function budgetText(perHour: number, budget: CallBudget, atMost: boolean): string {
  if (budget.hasOwnKey) return ": uses your own key";
  if (!budget.sharedKey) return "";
  const left = Math.max(0, FREE_SHARED_CALLS - budget.used);
  if (left === 0) return ": your free calls are used up";
  return `: your ${plural(left, "free call")} ${left === 1 ? "lasts" : "last"} ${atMost ? "at least" : "about"} ${lasting((left / perHour) * 60)}`;
}

/**
 * e.g. "About 720 AI calls an hour: your 77 free calls last about 6 minutes" (a 5 s interval), "No AI calls: runs on
 * this server", "At most 60 AI calls an hour (one description per photo, at most one photo every 60 s)"; null for a
 * number that is no number.
 */
export function monitorCost(choice: CostChoice, budget: CallBudget): string | null {
  if (!choice.local) {
    if (!Number.isFinite(choice.intervalSeconds) || choice.intervalSeconds <= 0) return null;
    const perHour = 3600 / choice.intervalSeconds;
    return `About ${rate(perHour)}${budgetText(perHour, budget, false)}`;
  }
  if (!choice.describe) return "No AI calls: runs on this server";
  if (!Number.isFinite(choice.minGapSeconds) || choice.minGapSeconds < 0) return null;
  if (choice.minGapSeconds === 0) return "One AI call per photo (a description each), with no minimum gap";
  const perHour = 3600 / choice.minGapSeconds;
  return `At most ${rate(perHour)} (one description per photo, at most one photo every ${gapText(choice.minGapSeconds)})${budgetText(perHour, budget, true)}`;
}
