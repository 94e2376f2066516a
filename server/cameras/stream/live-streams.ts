// What the stream supervisor (supervisor.ts) offers, apart from it: the relay and camera streams use it without
// importing the supervisor back.
import type { CameraSource } from "../source";
import type { Snapshot } from "./snapshot";
import type { StreamStatus } from "./status";
import type { Viewer, ViewerSink } from "./viewer";

export interface LiveStreams {
  /** Adds a viewer (starting the pull if needed); call `leave` when its connection ends. */
  watch(source: CameraSource, sink: ViewerSink): { viewer: Viewer; leave: () => void };
  /** Keeps the pull alive (a monitor); call the returned function to release it. */
  hold(source: CameraSource): () => void;
  /**
   * A full-resolution JPEG: the camera's snapshot URL, else one frame of its main stream; taken by the process that
   * owns the camera (`here`: by this one, asked by the owner's relay). Throws SnapshotError.
   */
  snapshot(source: CameraSource, options?: { here?: boolean }): Promise<Snapshot>;
  /**
   * The camera was deleted or its address or login changed: stop its ffmpeg now, close its viewers, in every process
   * (`here`: in this one only, told by another).
   */
  forget(cameraId: string, options?: { here?: boolean }): Promise<void>;
  /** Changes may have been missed (this process stopped hearing them for a while): forget every stream whose camera changed or is gone. */
  resync(): Promise<void>;
  status(cameraId: string): StreamStatus | null;
  /** Another process took the camera while this one's database connection was down: relay from it instead. */
  ownershipLost(cameraId: string): void;
  /** ffmpeg processes started for this camera so far (tests). */
  starts(cameraId: string): number;
  close(): Promise<void>;
}
