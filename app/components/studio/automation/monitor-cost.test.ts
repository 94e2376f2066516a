import { describe, expect, it } from "vitest";
import { monitorCost } from "./monitor-cost";

describe("monitorCost", () => {
  const free = (used: number) => ({ hasOwnKey: false, sharedKey: true, used });

  it("says the calls a minute and how long the free calls left last, in the issue's words", () => {
    expect(monitorCost(5, free(23))).toBe("about 12 calls a minute: your 77 free calls last about 6 minutes");
    expect(monitorCost(60, free(0))).toBe("about 1 call a minute: your 100 free calls last about 100 minutes");
    expect(monitorCost(300, free(0))).toBe("about 1 call every 5 minutes: your 100 free calls last about 8 hours");
    expect(monitorCost(5, free(100))).toBe("about 12 calls a minute: your free calls are used up");
  });

  it("says the user's own key pays, and nothing about free calls without a shared key", () => {
    expect(monitorCost(5, { hasOwnKey: true, sharedKey: true, used: 40 })).toBe("about 12 calls a minute: uses your own key");
    expect(monitorCost(5, { hasOwnKey: false, sharedKey: false, used: 0 })).toBe("about 12 calls a minute");
    expect(monitorCost(Number.NaN, free(0))).toBeNull();
  });
});
