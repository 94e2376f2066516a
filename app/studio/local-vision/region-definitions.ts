// A line or zone as the API stores it, turned into what the scene engine counts with: the studio and the server's
// always-on pipeline (server/local-vision/pipeline/) read them the same way.
import type { Line, Zone } from "../../schemas/local-vision";
import type { LineDefinition } from "./lines";
import type { ZoneDefinition } from "./zones";

export function toLineDefinition(line: Line): LineDefinition {
  return { id: line.id, a: line.a, b: line.b, labels: line.labels, anchor: line.anchor, settleFrames: line.settleFrames };
}

export function toZoneDefinition(zone: Zone): ZoneDefinition {
  return { id: zone.id, polygon: zone.polygon, labels: zone.labels, anchor: zone.anchor, inertia: zone.inertia, loiterSeconds: zone.loiterSeconds };
}
