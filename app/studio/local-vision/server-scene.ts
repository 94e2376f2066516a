// What the server's always-on pipeline of a watched IP camera (issue 30, server/local-vision/pipeline/) tells a studio
// after each frame: GET /api/cameras/{id}/watch/live's `scene` events. The studio draws it instead of running a
// detector of its own on that camera: the same tracks, counts and occupancy shapes as its own scene's.
import type { Box } from "./geometry";
import type { LineCounts } from "./lines";
import type { ZoneOccupancy } from "./zones";

export interface ServerScene {
  /** The frame's time, Unix milliseconds. */
  at: number;
  /** Confirmed tracks (as the studio shows them) of every class the pipeline tracks. */
  tracks: { id: number; label: string; box: Box; score: number }[];
  /** Per line id: counted since the pipeline started (or the line was reset). */
  lineCounts: Record<string, LineCounts>;
  /** Per zone id: who is inside now. */
  zoneOccupancy: Record<string, ZoneOccupancy>;
}
