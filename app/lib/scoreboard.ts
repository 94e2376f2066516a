// How a scoreboard reading is labelled on overlays (studio and OBS): the period rules of the spec
// (soccer adds " Half", football and basketball prefix "Q") and "LIVE" when there is no period or time.
import type { Sport } from "../schemas/vision";

const ORDINAL = /^(\d{1,2})(?:st|nd|rd|th)?$/i;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/**
 * "2" or "2nd" becomes "2nd Half" (soccer) or "Q2" (football, basketball). Words the model read off the
 * board ("OT", "Halftime", "Final", "Q3", "2nd Half") are shown as they are: prefixing them would garble them.
 */
export function formatPeriod(sport: Sport, period: string | null | undefined): string | null {
  const text = period?.trim();
  if (!text) return null;
  const numbered = ORDINAL.exec(text);
  if (!numbered) return text;
  const n = Number(numbered[1]);
  return sport === "soccer" ? `${ordinal(n)} Half` : `Q${n}`;
}

/** The period and clock as one label, e.g. "Q4 2:31" or "2nd Half 67:12"; "LIVE" when neither is known. */
export function scoreboardLabel(sport: Sport, period: string | null | undefined, timeRemaining: string | null | undefined): string {
  const parts = [formatPeriod(sport, period), timeRemaining?.trim() || null].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join(" ") : "LIVE";
}
