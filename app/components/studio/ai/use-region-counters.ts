// The counter text of each line and zone of the selected camera, one truth for the picture and the list: today's
// stored totals plus what this tab counted that the server has not stored yet (the counts controller), and for a
// zone who is inside now while local detection watches.
import { useMemo } from "react";
import { lineCounterText, zoneCounterText } from "#app/studio/local-vision/regions-controller";
import { useAi, useStore } from "../studio-context";

export interface RegionCounters {
  /** By line or zone id. */
  text: Record<string, string>;
}

export function useRegionCounters(): RegionCounters {
  const { regions, counts, localVision } = useAi();
  const current = useStore(regions.store, (s) => (s.cameraId ? s.byCamera[s.cameraId] : undefined));
  const summary = useStore(counts.store, (s) => s.summary);
  const occupancy = useStore(localVision.store, (s) => s.zoneOccupancy);
  const watching = useStore(localVision.store, (s) => s.enabled || s.countingPeople);
  return useMemo(() => {
    const text: Record<string, string> = {};
    for (const line of current?.lines ?? []) text[line.id] = lineCounterText(line.name, summary?.lines.find((l) => l.id === line.id)?.counts.today);
    for (const zone of current?.zones ?? []) {
      text[zone.id] = zoneCounterText(zone.name, summary?.zones.find((z) => z.id === zone.id)?.counts.today, watching ? (occupancy[zone.id] ?? { count: 0 }) : null);
    }
    return { text };
  }, [current, summary, occupancy, watching]);
}
