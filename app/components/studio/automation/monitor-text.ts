// What the Automate tab's monitor list says about a monitor: its state, when it last ran, what it found.
import { LOCAL_TRIGGER_LABELS, MONITOR_KIND_LABELS, type Monitor } from "#app/schemas/monitors";

export const STATE_LABELS: Record<Monitor["state"], string> = { running: "Running", paused: "Paused", stopped: "Stopped", error: "Error" };

/** "just now", "12 s ago", "5 min ago", "3 h ago", "2 d ago"; "never" before the first run. */
export function relativeTime(iso: string | null, now: number): string {
  if (!iso) return "never";
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

export function describeResult(monitor: Pick<Monitor, "kind" | "lastResult">): string | null {
  const result = monitor.lastResult;
  if (!result) return null;
  switch (monitor.kind) {
    case "auto_capture": {
      const boxes = result.boxes ?? 0;
      return `${boxes} ${boxes === 1 ? "box" : "boxes"}${result.photoId ? ", photo saved" : ""}`;
    }
    case "people_count":
      return result.countMin != null && result.countMax != null ? `${result.countMin}–${result.countMax} people` : `${result.count ?? 0} people`;
    case "story":
      return result.caption ? `“${result.caption}”` : "nothing new";
    case "local_capture":
      // The photo saved, or why not (within the minimum gap; a failure says itself in the error line).
      return `${result.event ?? "event"}: ${result.photoId ? "photo saved" : result.skipped ? `no photo, ${result.skipped}` : "no photo"}${result.description ? ` — “${result.description}”` : ""}`;
  }
}

export function describeSettings(monitor: Pick<Monitor, "kind" | "settings">): string {
  const { settings } = monitor;
  if (monitor.kind === "local_capture") {
    const trigger = settings.trigger ? LOCAL_TRIGGER_LABELS[settings.trigger] : "appears";
    return `${settings.label ?? ""} ${trigger}, at most one photo per ${settings.minGapSeconds ?? 0} s${settings.describePrompt ? ", described" : ""}`;
  }
  const every = `every ${settings.intervalSeconds} s`;
  if (monitor.kind === "auto_capture") return `${settings.query ?? ""}, ${every}, at most one photo per ${settings.minGapSeconds ?? 5} s`;
  return `${MONITOR_KIND_LABELS[monitor.kind]} ${every}`;
}
