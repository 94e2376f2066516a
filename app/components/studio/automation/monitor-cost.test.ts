import { describe, expect, it } from "vitest";
import { monitorCost } from "./monitor-cost";

describe("monitorCost", () => {
  const free = (used: number) => ({ hasOwnKey: false, sharedKey: true, used });
  const every = (intervalSeconds: number) => ({ local: false as const, intervalSeconds });
  const local = (describe: boolean, minGapSeconds: number) => ({ local: true as const, describe, minGapSeconds });

  it("says a ticking monitor's AI calls an hour and how long the free calls left last", () => {
    expect(monitorCost(every(5), free(23))).toBe("About 720 AI calls an hour: your 77 free calls last about 6 minutes");
    expect(monitorCost(every(60), free(0))).toBe("About 60 AI calls an hour: your 100 free calls last about 100 minutes");
    expect(monitorCost(every(300), free(0))).toBe("About 12 AI calls an hour: your 100 free calls last about 8 hours");
    expect(monitorCost(every(7200), free(0))).toBe("About 1 AI call every 2 hours: your 100 free calls last about 200 hours");
    expect(monitorCost(every(5), free(100))).toBe("About 720 AI calls an hour: your free calls are used up");
  });

  it("says the user's own key pays, and nothing about free calls without a shared key", () => {
    expect(monitorCost(every(5), { hasOwnKey: true, sharedKey: true, used: 40 })).toBe("About 720 AI calls an hour: uses your own key");
    expect(monitorCost(every(5), { hasOwnKey: false, sharedKey: false, used: 0 })).toBe("About 720 AI calls an hour");
    expect(monitorCost(every(Number.NaN), free(0))).toBeNull();
  });

  it("says a monitor on local vision costs nothing, or at most one description per photo per minimum gap", () => {
    expect(monitorCost(local(false, 60), free(0))).toBe("No AI calls: runs on this server");
    expect(monitorCost(local(true, 60), free(40))).toBe(
      "At most 60 AI calls an hour (one description per photo, at most one photo every 60 s): your 60 free calls last at least 60 minutes",
    );
    expect(monitorCost(local(true, 300), { hasOwnKey: true, sharedKey: true, used: 0 })).toBe(
      "At most 12 AI calls an hour (one description per photo, at most one photo every 5 min): uses your own key",
    );
    expect(monitorCost(local(true, 7200), { hasOwnKey: false, sharedKey: false, used: 0 })).toBe(
      "At most 1 AI call every 2 hours (one description per photo, at most one photo every 2 h)",
    );
    expect(monitorCost(local(true, 0), free(0))).toBe("One AI call per photo (a description each), with no minimum gap");
    expect(monitorCost(local(true, Number.NaN), free(0))).toBeNull();
  });
});
