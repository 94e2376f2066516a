// Under a line's or zone's entry: what this tab counted on it since it was opened, labelled as such, beside the
// totals for today that the picture and the entry show (shown once this tab has counted something there).
import type { RegionKind } from "#app/studio/local-vision/regions-controller";
import { useAi, useStore } from "../studio-context";

export function SessionCounts({ kind, id }: { kind: RegionKind; id: string }) {
  const { counts } = useAi();
  const tally = useStore(counts.store, (s) => s.session[id]);
  if (!tally) return null;
  const figures = kind === "line" ? `${tally.in ?? 0} in · ${tally.out ?? 0} out` : `${tally.entered ?? 0} entered · ${tally.exited ?? 0} exited`;
  return (
    <p className="text-xs text-slate-400 tabular-nums" data-testid={`${kind}-row-session`}>
      {figures} since you opened this tab
    </p>
  );
}
