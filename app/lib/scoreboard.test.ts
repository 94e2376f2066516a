import { describe, expect, it } from "vitest";
import { formatPeriod, scoreboardLabel } from "./scoreboard";

describe("scoreboard labels", () => {
  it("soccer adds ' Half'; football and basketball prefix 'Q'", () => {
    expect(formatPeriod("soccer", "1")).toBe("1st Half");
    expect(formatPeriod("soccer", "2nd")).toBe("2nd Half");
    expect(formatPeriod("football", "3")).toBe("Q3");
    expect(formatPeriod("basketball", "4th")).toBe("Q4");
  });

  it("keeps words read off the board as they are", () => {
    expect(formatPeriod("football", "OT")).toBe("OT");
    expect(formatPeriod("basketball", "Q2")).toBe("Q2");
    expect(formatPeriod("soccer", "2nd Half")).toBe("2nd Half");
    expect(formatPeriod("soccer", "  ")).toBeNull();
  });

  it("joins period and clock, and says LIVE when neither is known", () => {
    expect(scoreboardLabel("basketball", "4", "2:31")).toBe("Q4 2:31");
    expect(scoreboardLabel("soccer", null, "67:12")).toBe("67:12");
    expect(scoreboardLabel("football", "2", null)).toBe("Q2");
    expect(scoreboardLabel("football", null, null)).toBe("LIVE");
    expect(scoreboardLabel("soccer", "", " ")).toBe("LIVE");
  });
});
