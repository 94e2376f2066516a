// How the timeline shows types and times.
import { TIMELINE_TYPE_LABELS, type TimelineType } from "../../schemas/timeline";

/** A colour per type, for the strip's marks and the list's badges. */
export const TYPE_COLOURS: Record<TimelineType, string> = {
  "line.crossed": "bg-sky-400",
  "zone.entered": "bg-emerald-400",
  "zone.exited": "bg-teal-300",
  "zone.loitering": "bg-amber-400",
  "photo.auto_captured": "bg-violet-400",
  "monitor.result": "bg-indigo-300",
  "monitor.error": "bg-red-500",
  "alert.sent": "bg-orange-400",
  "alert.failed": "bg-red-400",
  "webhook.failed": "bg-rose-500",
};

export const typeLabel = (type: TimelineType) => TIMELINE_TYPE_LABELS[type];

export const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
export const dateTimeOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
