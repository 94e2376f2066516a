// A day's events at a glance: a strip per camera from midnight to midnight with a mark per type and 5 minutes (its
// count in the label); clicking a mark selects that bucket's latest event in the list.
import { useEffect, useState } from "react";
import { timelineApi } from "../../lib/api/timeline";
import { TIMELINE_TYPES, type TimelineDay } from "../../schemas/timeline";
import { TYPE_COLOURS, timeOf, typeLabel } from "./format";

const HOURS = [0, 6, 12, 18];
/** The height of a type's row of marks. */
const ROW_PX = 12;

export function DayStrip({
  date,
  timeZone,
  refreshKey,
  onDateChange,
  onSelect,
}: {
  date: string;
  timeZone: string;
  /** Changes when the list reloads, so the strip shows new events too. */
  refreshKey: number;
  onDateChange: (date: string) => void;
  onSelect: (eventId: string, eventAt: string) => void;
}) {
  const [day, setDay] = useState<TimelineDay | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    timelineApi
      .day(date, timeZone, controller.signal)
      .then(setDay)
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [date, timeZone, refreshKey]);

  const span = day ? new Date(day.to).getTime() - new Date(day.from).getTime() : 1;
  const left = (iso: string) => day && `${((new Date(iso).getTime() - new Date(day.from).getTime()) / span) * 100}%`;

  return (
    <section aria-labelledby="day-strip-title" className="space-y-2 rounded-lg border border-ink-700 bg-ink-900 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="day-strip-title" className="text-sm font-semibold text-white">
          The day at a glance
        </h2>
        <label className="flex items-center gap-2 text-xs text-slate-300">
          Day
          <input
            type="date"
            value={date}
            onChange={(e) => e.target.value && onDateChange(e.target.value)}
            className="rounded-md border border-ink-700 bg-ink-950 px-2 py-1 text-sm text-slate-100"
          />
        </label>
      </div>
      {failed ? <p className="text-sm text-slate-400">The day could not be loaded.</p> : null}
      {day && day.cameras.length === 0 ? <p className="text-sm text-slate-400">Nothing happened on this day.</p> : null}
      {day?.cameras.map((camera) => {
        // A row per type the camera had this day: marks of one bucket never cover each other.
        const types = TIMELINE_TYPES.filter((type) => camera.marks.some((mark) => mark.type === type));
        return (
          <div key={camera.cameraId ?? `name:${camera.cameraName ?? ""}`} className="space-y-1" data-testid="day-strip-camera">
            <div className="truncate text-xs text-slate-300">{camera.cameraName ?? "No camera"}</div>
            <div className="relative rounded bg-ink-950" style={{ height: `${types.length * ROW_PX + 4}px` }}>
              {HOURS.map((hour) => (
                <span key={hour} aria-hidden className="absolute top-0 h-full border-l border-ink-700" style={{ left: `${(hour / 24) * 100}%` }} />
              ))}
              {camera.marks.map((mark) => (
                <button
                  key={`${mark.type} ${mark.at}`}
                  type="button"
                  title={`${typeLabel(mark.type)} ×${mark.count} at ${timeOf(mark.eventAt)}`}
                  aria-label={`${typeLabel(mark.type)} ×${mark.count} at ${timeOf(mark.eventAt)}, ${camera.cameraName ?? "no camera"}`}
                  onClick={() => onSelect(mark.eventId, mark.eventAt)}
                  className={`absolute w-1.5 -translate-x-1/2 rounded-sm ${TYPE_COLOURS[mark.type]} hover:scale-y-125 focus:ring-2 focus:ring-white focus:outline-none`}
                  style={{ left: left(mark.at) ?? "0", top: `${types.indexOf(mark.type) * ROW_PX + 2}px`, height: `${ROW_PX - 2}px` }}
                />
              ))}
            </div>
          </div>
        );
      })}
      <div aria-hidden className="relative h-3 text-[10px] text-slate-500">
        {HOURS.map((hour) => (
          <span key={hour} className="absolute" style={{ left: `${(hour / 24) * 100}%` }}>
            {String(hour).padStart(2, "0")}:00
          </span>
        ))}
      </div>
    </section>
  );
}
