// The timeline page's state in the URL (so a search can be bookmarked, linked from the Photos tab with ?q=, and the
// back button works): camera, type, class, a time range, the search words and the strip's day.
import { TIMELINE_TYPES, type TimelineType } from "../../schemas/timeline";
import type { TimelineListQuery } from "../../lib/api/timeline";

export interface TimelineFilter {
  cameraId: string | null;
  type: TimelineType | null;
  label: string;
  /** datetime-local values (the browser's time), "" when open. */
  from: string;
  to: string;
  q: string;
  /** The day strip's date, YYYY-MM-DD; null: today. */
  day: string | null;
}

const isType = (value: string | null): value is TimelineType => TIMELINE_TYPES.includes(value as TimelineType);
const isLocalTime = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value);

export function readFilter(params: URLSearchParams): TimelineFilter {
  const type = params.get("type");
  const day = params.get("day");
  return {
    cameraId: params.get("camera") || null,
    type: isType(type) ? type : null,
    label: params.get("label") ?? "",
    from: isLocalTime(params.get("from")) ? params.get("from")! : "",
    to: isLocalTime(params.get("to")) ? params.get("to")! : "",
    q: params.get("q") ?? "",
    day: day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
  };
}

export function writeFilter(filter: TimelineFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.cameraId) params.set("camera", filter.cameraId);
  if (filter.type) params.set("type", filter.type);
  if (filter.label.trim()) params.set("label", filter.label.trim());
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (filter.q.trim()) params.set("q", filter.q.trim());
  if (filter.day) params.set("day", filter.day);
  return params;
}

/** The API's query for the list (times from the browser's clock to ISO instants). */
export function listQuery(filter: TimelineFilter): TimelineListQuery {
  return {
    cameraId: filter.cameraId ?? undefined,
    type: filter.type ?? undefined,
    label: filter.label.trim() || undefined,
    from: filter.from ? new Date(filter.from).toISOString() : undefined,
    to: filter.to ? new Date(filter.to).toISOString() : undefined,
    q: filter.q.trim() || undefined,
  };
}

/** An instant as a datetime-local value in the browser's time (to the second). */
export function toLocalInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** Today in the browser's time zone, YYYY-MM-DD. */
export function today(): string {
  return toLocalInput(new Date()).slice(0, 10);
}
