// Keeps a running monitor's camera stream pulled in the process that ticks it, so each tick's snapshot comes
// from a warm stream. A hold lapses a while after the monitor's last tick here (another process may have
// taken over, or the monitor was paused elsewhere), and is let go at once on pause, delete and shutdown.
import type { CameraSource } from "../cameras/source";
import type { MonitorFrames } from "./frames";

interface Hold {
  release: () => void;
  timer: NodeJS.Timeout;
}

const holds = new Map<string, Hold>();

/** Holds (or keeps holding) the monitor's stream for `ms` more. */
export function holdFor(frames: MonitorFrames, monitorId: string, source: CameraSource, ms: number): void {
  const existing = holds.get(monitorId);
  if (existing) clearTimeout(existing.timer);
  // Held anew each tick, with the tick's fresh row, before the last hold is let go: a camera changed or deleted
  // meanwhile had its stream closed (and the old hold with it), and the hold must pull the new address.
  const release = frames.hold(source);
  existing?.release();
  const timer = setTimeout(() => releaseHold(monitorId), ms);
  timer.unref();
  holds.set(monitorId, { release, timer });
}

export function releaseHold(monitorId: string): void {
  const hold = holds.get(monitorId);
  if (!hold) return;
  holds.delete(monitorId);
  clearTimeout(hold.timer);
  hold.release();
}

export function releaseAllHolds(): void {
  for (const id of [...holds.keys()]) releaseHold(id);
}

export const heldMonitors = (): string[] => [...holds.keys()];
