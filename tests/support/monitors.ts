// Monitor tests: IP camera rows for the fake camera, and counters around the stream supervisor's frames and holds
// (server/monitors/frames.ts is where they plug in).
import type { Kysely } from "kysely";
import type { FakeIpCamera } from "../fakes/ip-camera/camera";
import type { Database } from "#db/schema";
import type { CameraSource } from "#server/cameras/source";
import type { MonitorFrames } from "#server/monitors/frames";

/** An IP camera row for the fake camera (as camreg's createIp would store it), sealed credentials and all. */
export async function insertIpCamera(db: Kysely<Database>, userId: string, camera: Pick<FakeIpCamera, "rtspUrl" | "snapshotUrl" | "username" | "password"> | null, name = "Lobby") {
  const { sealCredentials } = await import("#server/cameras/source");
  return db
    .insertInto("cameras")
    .values({
      user_id: userId,
      name,
      model: "IP Camera",
      source: "ip",
      ip_host: "127.0.0.1",
      // Loopback port 9 (discard) is closed: an app that tries to pull it fails at once, on this machine only.
      stream_url: camera?.rtspUrl("/1") ?? "rtsp://127.0.0.1:9/1",
      sub_stream_url: camera?.rtspUrl("/2") ?? null,
      snapshot_url: camera?.snapshotUrl(1) ?? null,
      credentials: camera ? sealCredentials({ username: camera.username, password: camera.password }, userId) : null,
      video_codec: "h264",
    })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

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
