// The words of alert rules: the "When …" choices of the form and one readable line per rule in the list.
import type { AlertRule, AlertRuleKind } from "#app/schemas/automation";

export const ALERT_KIND_LABELS: Record<AlertRuleKind, string> = {
  detection: "an object is detected",
  people_count: "counting exceeds",
  line_crossed: "a line is crossed",
  zone_entered: "something enters a zone",
  zone_exited: "something leaves a zone",
  zone_loitering: "someone loiters in a zone",
};

export type VisionKind = Exclude<AlertRuleKind, "detection" | "people_count">;

export const isVisionKind = (kind: AlertRuleKind): kind is VisionKind => kind !== "detection" && kind !== "people_count";

/** What a local-vision rule's thing does, worded after "When a {class} …", and what it watches. */
const VISION_VERB: Record<VisionKind, string> = {
  line_crossed: "crosses",
  zone_entered: "enters",
  zone_exited: "leaves",
  zone_loitering: "loiters in",
};

export const regionWord = (kind: VisionKind) => (kind === "line_crossed" ? "line" : "zone");

function watched(rule: AlertRule & { kind: VisionKind }): string {
  const word = regionWord(rule.kind);
  if (!rule.targetId) return `any ${word}`;
  return rule.target ? `"${rule.target.name}" on ${rule.target.cameraName}` : `a deleted ${word}`;
}

export function describeRule(rule: AlertRule): string {
  const what =
    rule.kind === "detection"
      ? `${rule.object} is detected`
      : rule.kind === "people_count"
        ? `more than ${rule.threshold} people are counted`
        : `${rule.object ? `a ${rule.object}` : "anything"} ${VISION_VERB[rule.kind]} ${watched(rule as AlertRule & { kind: VisionKind })}`;
  const how = [rule.email ? "e-mail" : null, rule.sms ? "SMS" : null].filter(Boolean).join(" and ");
  return `When ${what} → ${how}, at most every ${rule.cooldownMinutes} min`;
}
