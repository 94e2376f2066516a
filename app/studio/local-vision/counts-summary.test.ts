// The Counts panel's sums: each line's and zone's counts per window (last hour, today since local midnight, last
// 24 h), rows of deleted regions left out, and the last hour's events per minute.
import { describe, expect, it } from "vitest";
import type { CountRow } from "../../schemas/local-vision";
import { summarizeCounts } from "./counts-summary";

const DOOR = "11111111-1111-4111-8111-111111111111";
const TILL = "33333333-3333-4333-8333-333333333333";
const GONE = "44444444-4444-4444-8444-444444444444";
const NOW = Date.parse("2026-11-24T10:30:20Z");
const MIDNIGHT = Date.parse("2026-11-24T00:00:00Z");
const ago = (minutes: number) => new Date(Math.floor(NOW / 60_000) * 60_000 - minutes * 60_000).toISOString();
const line = (minutesAgo: number, kind: "in" | "out", count: number): CountRow => ({ minute: ago(minutesAgo), lineId: DOOR, zoneId: null, label: "person", kind, count });
const zone = (minutesAgo: number, kind: "entered" | "exited" | "loitering", count: number, zoneId = TILL): CountRow => ({
  minute: ago(minutesAgo),
  lineId: null,
  zoneId,
  label: "person",
  kind,
  count,
});

describe("summarizeCounts", () => {
  it("sums each line and zone over the last hour, today and the last 24 hours", () => {
    const rows = [line(0, "in", 2), line(59, "out", 1), line(60, "in", 5), line(700, "in", 7), zone(3, "entered", 4), zone(3, "loitering", 1), zone(650, "exited", 3)];
    const summary = summarizeCounts(rows, { lines: [{ id: DOOR, name: "Door" }], zones: [{ id: TILL, name: "Till" }] }, NOW, MIDNIGHT);
    expect(summary.lines).toEqual([
      {
        id: DOOR,
        name: "Door",
        counts: { hour: { in: 2, out: 1 }, today: { in: 7, out: 1 }, day: { in: 14, out: 1 } },
      },
    ]);
    expect(summary.zones[0]!.counts).toEqual({
      hour: { entered: 4, exited: 0, loitering: 1 },
      today: { entered: 4, exited: 0, loitering: 1 },
      day: { entered: 4, exited: 3, loitering: 1 },
    });
  });

  it("shows every line and zone (zero when quiet), leaves out rows of deleted ones, and charts crossings and entries per minute", () => {
    const rows = [line(0, "in", 2), line(0, "out", 1), line(59, "in", 1), zone(1, "entered", 4), zone(1, "exited", 4), zone(1, "entered", 9, GONE)];
    const summary = summarizeCounts(rows, { lines: [{ id: DOOR, name: "Door" }], zones: [{ id: TILL, name: "Till" }] }, NOW, MIDNIGHT);
    expect(summary.zones.map((z) => z.id)).toEqual([TILL]);
    expect(summary.perMinute).toHaveLength(60);
    expect(summary.perMinute[59]).toBe(3);
    expect(summary.perMinute[58]).toBe(4);
    expect(summary.perMinute[0]).toBe(1);
    expect(summary.perMinute.reduce((a, b) => a + b, 0)).toBe(8);
    const quiet = summarizeCounts([], { lines: [{ id: DOOR, name: "Door" }], zones: [] }, NOW, MIDNIGHT);
    expect(quiet.lines[0]!.counts.day).toEqual({ in: 0, out: 0 });
  });
});
