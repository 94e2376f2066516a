// One camera's local-vision state in one call per frame: detections in, tracks and line/zone events out.
import type { LocalVisionEvent } from "./events";
import { createLineCounter, type LineCounter, type LineDefinition } from "./lines";
import { createTracker, type Detection, type Track, type Tracker, type TrackerOptions } from "./tracker";
import { createZoneWatcher, type ZoneDefinition, type ZoneWatcher } from "./zones";

export interface SceneOptions {
  tracker?: Partial<TrackerOptions>;
  lines?: readonly LineDefinition[];
  zones?: readonly ZoneDefinition[];
}

export interface Scene {
  tracker: Tracker;
  lines: LineCounter;
  zones: ZoneWatcher;
  /** One frame: `at` in milliseconds, increasing. */
  step(detections: readonly Detection[], at: number): { tracks: Track[]; events: LocalVisionEvent[] };
}

export function createScene(options: SceneOptions = {}): Scene {
  const tracker = createTracker(options.tracker);
  const lines = createLineCounter(options.lines);
  const zones = createZoneWatcher(options.zones);
  return {
    tracker,
    lines,
    zones,
    step(detections, at) {
      const tracks = tracker.update(detections, at);
      return { tracks, events: [...lines.update(tracks, at), ...zones.update(tracks, at)] };
    },
  };
}
