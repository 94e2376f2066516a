import { describe, expect, it } from "vitest";
import type { AlertRule } from "#app/schemas/automation";
import { describeRule } from "./alert-rule-text";

const base: AlertRule = {
  id: "r",
  kind: "detection",
  object: "forklift",
  threshold: null,
  targetId: null,
  target: null,
  email: true,
  sms: false,
  cooldownMinutes: 5,
  enabled: true,
  lastFiredAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("describeRule", () => {
  it("words each kind of rule", () => {
    expect(describeRule(base)).toBe("When forklift is detected → e-mail, at most every 5 min");
    expect(describeRule({ ...base, kind: "people_count", object: null, threshold: 10, sms: true })).toBe(
      "When more than 10 people are counted → e-mail and SMS, at most every 5 min",
    );
    const target = { name: "Front door", cameraId: "c", cameraName: "Shop" };
    expect(describeRule({ ...base, kind: "line_crossed", object: "person", targetId: "l", target })).toBe(
      'When a person crosses "Front door" on Shop → e-mail, at most every 5 min',
    );
    expect(describeRule({ ...base, kind: "zone_entered", object: null })).toBe("When anything enters any zone → e-mail, at most every 5 min");
    expect(describeRule({ ...base, kind: "zone_exited", object: "car", targetId: "z", target: null })).toBe("When a car leaves a deleted zone → e-mail, at most every 5 min");
    expect(describeRule({ ...base, kind: "zone_loitering", object: "person", targetId: "z", target: { ...target, name: "Till" } })).toBe(
      'When a person loiters in "Till" on Shop → e-mail, at most every 5 min',
    );
  });
});
