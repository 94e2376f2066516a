// The Counts panel's figures from a camera's per-minute rows (GET /api/cameras/{id}/counts over the last 24 hours):
// each line's in/out and each zone's entered/exited/loitering over the last hour, today (since local midnight) and
// the last 24 hours, and the last hour's events per minute for its bar chart.
import type { CountRow } from "../../schemas/local-vision";

export const COUNT_WINDOWS = ["hour", "today", "day"] as const;
export type CountWindow = (typeof COUNT_WINDOWS)[number];
export const COUNT_WINDOW_LABELS: Record<CountWindow, string> = { hour: "Last hour", today: "Today", day: "Last 24 h" };

type Tally<K extends string> = Record<CountWindow, Record<K, number>>;

export interface LineCounts {
  id: string;
  name: string;
  counts: Tally<"in" | "out">;
}

export interface ZoneCounts {
  id: string;
  name: string;
  counts: Tally<"entered" | "exited" | "loitering">;
}

export interface CountsSummary {
  lines: LineCounts[];
  zones: ZoneCounts[];
  /** Events (crossings and zone entries) in each of the last 60 minutes, oldest first. */
  perMinute: number[];
}

const MINUTE = 60_000;

function tally<K extends string>(kinds: readonly K[]): Tally<K> {
  const zero = () => Object.fromEntries(kinds.map((k) => [k, 0])) as Record<K, number>;
  return { hour: zero(), today: zero(), day: zero() };
}

/** `now` and `startOfToday` in Unix milliseconds (today: the browser's local midnight). */
export function summarizeCounts(
  rows: readonly CountRow[],
  regions: { lines: ReadonlyArray<{ id: string; name: string }>; zones: ReadonlyArray<{ id: string; name: string }> },
  now: number,
  startOfToday: number,
): CountsSummary {
  const lines = new Map(regions.lines.map((l) => [l.id, { id: l.id, name: l.name, counts: tally(["in", "out"] as const) }]));
  const zones = new Map(regions.zones.map((z) => [z.id, { id: z.id, name: z.name, counts: tally(["entered", "exited", "loitering"] as const) }]));
  const currentMinute = Math.floor(now / MINUTE) * MINUTE;
  const perMinute = Array.from({ length: 60 }, () => 0);
  for (const row of rows) {
    const minute = Date.parse(row.minute);
    if (!(minute <= now) || minute < now - 24 * 3600_000) continue;
    const windows: CountWindow[] = ["day"];
    if (minute >= startOfToday) windows.push("today");
    // The last hour is the last 60 minutes the rows are kept in, this one included (the chart's bars).
    if (minute > currentMinute - 60 * MINUTE) windows.push("hour");
    const target = row.lineId ? lines.get(row.lineId) : row.zoneId ? zones.get(row.zoneId) : undefined;
    // A line or zone deleted since (its rows go with it on the server) is not shown.
    if (!target) continue;
    for (const w of windows) {
      const counts = target.counts[w] as Record<string, number>;
      if (row.kind in counts) counts[row.kind]! += row.count;
    }
    const slot = 59 - (currentMinute - minute) / MINUTE;
    if (slot >= 0 && slot < 60 && (row.kind === "in" || row.kind === "out" || row.kind === "entered")) perMinute[slot]! += row.count;
  }
  return { lines: [...lines.values()], zones: [...zones.values()], perMinute };
}

/** Local midnight of the day `now` falls in. */
export function startOfLocalDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}
