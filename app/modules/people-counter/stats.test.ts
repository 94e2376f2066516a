import { describe, expect, it } from "vitest";
import { csvFileName, normaliseEndpoint, summarise, toCsv } from "./stats";

describe("people counter stats", () => {
  it("summarises current, average, min and max", () => {
    const at = new Date("2026-01-01T10:00:00Z");
    expect(summarise([])).toEqual({ current: null, average: null, min: null, max: null, readings: 0 });
    expect(summarise([3, 5, 4].map((count) => ({ at, count })))).toEqual({ current: 4, average: 4, min: 3, max: 5, readings: 3 });
    expect(summarise([1, 2].map((count) => ({ at, count }))).average).toBe(1.5);
  });

  it("writes CSV with a header and one row per reading", () => {
    const csv = toCsv([{ at: new Date("2026-01-01T10:00:00Z"), count: 3 }]);
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("timestamp,local_time,people");
    expect(lines[1]).toMatch(/^2026-01-01T10:00:00\.000Z,".+",3$/);
    expect(csvFileName(new Date("2026-01-01T10:00:00Z"))).toBe("people-count-2026-01-01-10-00-00.csv");
  });

  it("accepts only http(s) endpoints", () => {
    expect(normaliseEndpoint(" https://api.moondream.ai/v1/ ")).toBe("https://api.moondream.ai/v1");
    expect(normaliseEndpoint("javascript:alert(1)")).toBeNull();
    expect(normaliseEndpoint("not a url")).toBeNull();
  });
});
