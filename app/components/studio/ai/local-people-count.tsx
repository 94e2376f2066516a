// People counting's local mode over the picture: the confirmed people in view now, from the on-device detector
// and tracker (updated at its frame rate, no calls), top left: the caption-family panels take the bottom.
import { useAi, useStore } from "../studio-context";

export function LocalPeopleCount() {
  const { localVision } = useAi();
  const people = useStore(localVision.store, (s) => (s.countingPeople ? s.people : undefined));
  const loading = useStore(localVision.store, (s) => s.status === "loading");
  if (people === undefined) return null;
  return (
    <div className="pointer-events-none absolute top-2 left-2 rounded-md bg-black/70 px-3 py-1.5 text-white" data-testid="local-people-count" aria-live="polite">
      <span className="text-2xl font-bold tabular-nums" data-testid="local-people-count-value">
        {people ?? "–"}
      </span>{" "}
      <span className="text-xs text-slate-200">{loading ? "People (loading the detector…)" : "People in view (local)"}</span>
    </div>
  );
}
