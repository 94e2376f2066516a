// Where a monitor's pictures come from: one frame per tick, and a hold that keeps the camera's pull alive while
// a monitor runs. The stream supervisor (server/cameras/stream/index.ts, liveStreams()) provides both; this
// module is the one place monitors reach it, so tests can hand in a grabber of their own.
import type { CameraSource } from "../cameras/source";
import { liveStreams } from "../cameras/stream/index";

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

const defaultFrames = (): MonitorFrames => liveStreams();

let override: MonitorFrames | null = null;

export function monitorFrames(): MonitorFrames {
  return override ?? defaultFrames();
}

/** Tests (which run the worker in their own process) hand in a grabber for the fake camera; null restores the default. */
export function setMonitorFrames(frames: MonitorFrames | null): void {
  override = frames;
}
