// "Where people go": the track heatmap (./track-heatmap.tsx) of one camera of the filter, over the report's period
// (its local dates' midnights in the report's time zone).
import { useId, useState } from "react";
import type { Camera } from "../../schemas/cameras";
import { SelectField } from "./controls";
import { addDays, zonedInstant } from "../../lib/local-dates";
import { TrackHeatmap } from "./track-heatmap";

export function WherePeopleGo({ cameras, from, to, timeZone }: { cameras: Camera[]; from: string; to: string; timeZone: string }) {
  const id = useId();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const camera = cameras.find((c) => c.id === chosenId) ?? cameras[0];
  if (!camera) return null;
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-xl border border-ink-700 bg-ink-900 p-4" data-testid="where-people-go">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={`${id}-heading`} className="text-base font-semibold text-white">
          Where people go
        </h2>
        {cameras.length > 1 ? (
          <div className="min-w-48">
            <SelectField id={`${id}-camera`} label="Camera" value={camera.id} onChange={setChosenId}>
              {cameras.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          </div>
        ) : null}
      </div>
      <TrackHeatmap
        key={camera.id}
        cameraId={camera.id}
        from={zonedInstant(from, "00:00", timeZone).toISOString()}
        to={zonedInstant(addDays(to, 1), "00:00", timeZone).toISOString()}
        title={camera.name}
        headingLevel={3}
      />
    </section>
  );
}
