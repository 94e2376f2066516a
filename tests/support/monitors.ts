// Monitor tests: counters around the stream supervisor's frames and holds
// (server/monitors/frames.ts is where they plug in).
import type { CameraSource } from "#server/cameras/source";
import type { MonitorFrames } from "#server/monitors/frames";

export interface SnapshotGrabber extends MonitorFrames {
  /** Frames grabbed so far, per camera id. */
  grabs: Map<string, number>;
  /** Streams held now, per camera id. */
  held: Map<string, number>;
}

/** The app's own stream supervisor with counters around it, so tests can see how often monitors grab and hold. */
export function countingFrames(inner: MonitorFrames): SnapshotGrabber {
  const grabs = new Map<string, number>();
  const held = new Map<string, number>();
  return {
    grabs,
    held,
    async snapshot(source: CameraSource) {
      const frame = await inner.snapshot(source);
      grabs.set(source.cameraId, (grabs.get(source.cameraId) ?? 0) + 1);
      return frame;
    },
    hold(source: CameraSource) {
      const release = inner.hold(source);
      held.set(source.cameraId, (held.get(source.cameraId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
        held.set(source.cameraId, held.get(source.cameraId)! - 1);
      };
    },
  };
}
