import { describe, expect, it } from "vitest";
import { describeResult, describeSettings, relativeTime } from "./monitor-text";

describe("monitor texts", () => {
  it("says how long ago a monitor ran", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(relativeTime(null, now)).toBe("never");
    expect(relativeTime("2026-01-01T11:59:58Z", now)).toBe("just now");
    expect(relativeTime("2026-01-01T11:59:30Z", now)).toBe("30 s ago");
    expect(relativeTime("2026-01-01T11:55:00Z", now)).toBe("5 min ago");
    expect(relativeTime("2026-01-01T09:00:00Z", now)).toBe("3 h ago");
    expect(relativeTime("2025-12-30T12:00:00Z", now)).toBe("2 d ago");
  });

  it("says what the last tick found, per kind", () => {
    expect(describeResult({ kind: "auto_capture", lastResult: { boxes: 1, photoId: "9b1f3c1e-8a4e-4a55-9a57-111111111111" } })).toBe("1 box, photo saved");
    expect(describeResult({ kind: "auto_capture", lastResult: { boxes: 0, photoId: null } })).toBe("0 boxes");
    expect(describeResult({ kind: "people_count", lastResult: { count: 9, countMin: 8, countMax: 10 } })).toBe("8–10 people");
    expect(describeResult({ kind: "people_count", lastResult: { count: 3, countMin: null, countMax: null } })).toBe("3 people");
    expect(describeResult({ kind: "story", lastResult: { caption: "" } })).toBe("nothing new");
    expect(describeResult({ kind: "story", lastResult: null })).toBeNull();
  });

  it("says what a monitor on local vision saw: the photo saved, or why not", () => {
    const photoId = "9b1f3c1e-8a4e-4a55-9a57-111111111111";
    expect(describeResult({ kind: "local_capture", lastResult: { event: "Way out: person crossed in", photoId, description: "A man in a coat" } })).toBe(
      "Way out: person crossed in: photo saved — “A man in a coat”",
    );
    expect(describeResult({ kind: "local_capture", lastResult: { event: "person appeared", photoId: null, skipped: "within the 60 s minimum gap" } })).toBe(
      "person appeared: no photo, within the 60 s minimum gap",
    );
    const settings = { label: "person", trigger: "crosses" as const, regionId: photoId, minGapSeconds: 60, describePrompt: "Who?" };
    expect(describeSettings({ kind: "local_capture", settings })).toBe("person crosses a line, at most one photo per 60 s, described");
  });
});
