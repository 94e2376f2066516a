// Where a monitor's pictures come from: one frame per tick, and a hold that keeps the camera's pull alive while
// a monitor runs. The stream supervisor (server/cameras/stream/index.ts) provides both; the composition root
// (server/composition.ts) hands it to the monitor tasks, and a test may hand in a grabber of its own.
import type { CameraSource } from "../cameras/source";

export interface MonitorFrame {
  jpeg: Buffer;
  width: number;
  height: number;
}

export type GrabFrame = (source: CameraSource) => Promise<MonitorFrame>;

export interface MonitorFrames {
  snapshot: GrabFrame;
  /** Keeps the camera's stream pulled; call the returned function to let it go. */
  hold(source: CameraSource): () => void;
}
