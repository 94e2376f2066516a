import { describe, expect, it } from "vitest";
import { featureCalls } from "./call-usage";

describe("featureCalls", () => {
  it("lists the features with calls in the last 24 hours, this hour's and the day's, in readable words", () => {
    const hour = "2026-03-10T10:00:00.000Z";
    const rows = featureCalls({
      currentHour: hour,
      hours: [
        { hour: "2026-03-10T08:00:00.000Z", feature: "captions", calls: 40 },
        { hour, feature: "captions", calls: 3 },
        { hour: "2026-03-10T09:00:00.000Z", feature: "monitors", calls: 12 },
        { hour, feature: "event_description", calls: 2 },
      ],
      totals: [
        { feature: "captions", calls: 43 },
        { feature: "event_description", calls: 2 },
        { feature: "monitors", calls: 12 },
      ],
    });
    expect(rows).toEqual([
      { feature: "captions", label: "Captions", thisHour: 3, last24h: 43 },
      { feature: "event_description", label: "Event descriptions", thisHour: 2, last24h: 2 },
      { feature: "monitors", label: "Monitors (server)", thisHour: 0, last24h: 12 },
    ]);
  });
});
