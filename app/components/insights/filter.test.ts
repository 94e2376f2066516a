// The Insights filter in the URL: read back as written, presets read on the day in the report's time zone, custom
// dates kept in order, and minute steps only for a day.
import { describe, expect, it } from "vitest";
import { allowedResolutions, periodDates, readFilter, reportQuery, writeFilter, type InsightsFilter } from "./filter";

const base: InsightsFilter = { siteId: null, cameraIds: [], lineIds: [], zoneIds: [], labels: [], period: "last7Days", from: null, to: null, resolution: null };

describe("the Insights filter", () => {
  it("round-trips through the query string, defaults left out", () => {
    const filter: InsightsFilter = {
      ...base,
      siteId: "s1",
      cameraIds: ["c1", "c2"],
      labels: ["person"],
      period: "custom",
      from: "2026-03-01",
      to: "2026-03-31",
      resolution: "day",
    };
    expect(writeFilter(filter).toString()).toBe("siteId=s1&cameraIds=c1%2Cc2&labels=person&period=custom&from=2026-03-01&to=2026-03-31&resolution=day");
    expect(readFilter(writeFilter(filter))).toEqual(filter);
    expect(writeFilter(base).toString()).toBe("");
    expect(readFilter(new URLSearchParams(""))).toEqual(base);
  });

  it("ignores what it does not know", () => {
    expect(readFilter(new URLSearchParams("period=fortnight&resolution=second&from=yesterday"))).toEqual(base);
    expect(readFilter(new URLSearchParams("from=2026-01-05"))).toEqual({ ...base, period: "custom", from: "2026-01-05" });
  });

  it("reads a preset on the day it is in the time zone: late Sunday in New York is Monday in Tokyo", () => {
    const now = new Date("2026-11-30T02:00:00Z");
    expect(periodDates({ ...base, period: "today" }, "America/New_York", now)).toEqual({ from: "2026-11-29", to: "2026-11-29" });
    expect(periodDates({ ...base, period: "today" }, "Asia/Tokyo", now)).toEqual({ from: "2026-11-30", to: "2026-11-30" });
    expect(periodDates({ ...base, period: "lastWeek" }, "Asia/Tokyo", now)).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(periodDates({ ...base, period: "lastMonth" }, "UTC", now)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
  });

  it("puts custom dates in order", () => {
    expect(periodDates({ ...base, period: "custom", from: "2026-05-10", to: "2026-05-01" }, "UTC", new Date())).toEqual({ from: "2026-05-01", to: "2026-05-10" });
  });

  it("allows minute steps for one day only, and never asks for them over longer", () => {
    expect(allowedResolutions("2026-05-01", "2026-05-01")).toContain("minute");
    expect(allowedResolutions("2026-05-01", "2026-05-02")).not.toContain("minute");
    const query = reportQuery({ ...base, period: "custom", from: "2026-05-01", to: "2026-05-07", resolution: "minute", lineIds: ["l1", "l2"] }, "UTC", new Date());
    expect(query).toEqual({
      from: "2026-05-01",
      to: "2026-05-07",
      lineIds: "l1,l2",
      siteId: undefined,
      cameraIds: undefined,
      zoneIds: undefined,
      labels: undefined,
      resolution: undefined,
    });
  });
});
