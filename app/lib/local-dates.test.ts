import { describe, expect, it } from "vitest";
import { addYears, localDate, relativePeriod, zonedInstant } from "./local-dates";

const midnight = (date: string, timeZone: string) => zonedInstant(date, "00:00", timeZone);

describe("local times in a time zone", () => {
  it("names the instant of a local time on both sides of a daylight-saving change", () => {
    // London: UTC+0 until 01:00 UTC on 29 March 2026, then UTC+1.
    expect(zonedInstant("2026-03-28", "10:00", "Europe/London").toISOString()).toBe("2026-03-28T10:00:00.000Z");
    expect(zonedInstant("2026-03-29", "10:00", "Europe/London").toISOString()).toBe("2026-03-29T09:00:00.000Z");
    expect(zonedInstant("2026-10-25", "10:00", "Europe/London").toISOString()).toBe("2026-10-25T10:00:00.000Z");
    // 01:30 happens twice on 25 October: the first (BST) one.
    expect(zonedInstant("2026-10-25", "01:30", "Europe/London").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    // Half-hour zones.
    expect(zonedInstant("2026-06-01", "09:00", "Asia/Kolkata").toISOString()).toBe("2026-06-01T03:30:00.000Z");
    expect(localDate(new Date("2026-06-01T20:00:00Z"), "Asia/Tokyo")).toBe("2026-06-02");
  });

  it("reads relative periods with weeks starting on Monday", () => {
    const now = new Date("2026-11-29T12:00:00Z"); // a Sunday
    expect(relativePeriod("thisWeek", "UTC", now)).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(relativePeriod("lastWeek", "UTC", now)).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    expect(relativePeriod("lastMonth", "UTC", now)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(relativePeriod("today", "Pacific/Auckland", now)).toEqual({ from: "2026-11-30", to: "2026-11-30" });
    expect(addYears("2028-02-29", -1)).toBe("2027-02-28");
  });

  it("finds a local midnight's instant, on a daylight-saving day too", () => {
    expect(midnight("2026-11-29", "UTC").toISOString()).toBe("2026-11-29T00:00:00.000Z");
    expect(midnight("2026-07-01", "Europe/London").toISOString()).toBe("2026-06-30T23:00:00.000Z");
    expect(midnight("2026-03-29", "Europe/London").toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(midnight("2026-03-30", "Europe/London").toISOString()).toBe("2026-03-29T23:00:00.000Z");
    expect(midnight("2026-11-29", "America/New_York").toISOString()).toBe("2026-11-29T05:00:00.000Z");
  });
});
