// Monitor tests: IP camera rows for the fake camera, and a frame grabber that fetches its HTTP snapshot with
// Digest — test code standing in for the stream supervisor (server/monitors/frames.ts is where it plugs in).
import type { Kysely } from "kysely";
import sharp from "sharp";
import { authorizationFor } from "../fakes/ip-camera/auth";
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

/** Fetches the camera's snapshot URL, answering its Digest challenge with the stored credentials. */
export function snapshotGrabber(): SnapshotGrabber {
  const grabs = new Map<string, number>();
  const held = new Map<string, number>();
  return {
    grabs,
    held,
    async snapshot(source: CameraSource) {
      if (!source.snapshotUrl) throw new Error("no snapshot URL");
      const url = new URL(source.snapshotUrl);
      let response = await fetch(url);
      if (response.status === 401 && source.credentials) {
        const challenge = response.headers.get("www-authenticate") ?? "";
        await response.arrayBuffer();
        const authorization = authorizationFor(challenge, "GET", url.pathname + url.search, source.credentials.username, source.credentials.password);
        response = await fetch(url, { headers: { authorization } });
      }
      if (!response.ok) throw new Error(response.status === 401 ? "authentication failed" : `snapshot answered ${response.status}`);
      const jpeg = Buffer.from(await response.arrayBuffer());
      const { width = 0, height = 0 } = await sharp(jpeg).metadata();
      grabs.set(source.cameraId, (grabs.get(source.cameraId) ?? 0) + 1);
      return { jpeg, width, height };
    },
    hold(source: CameraSource) {
      held.set(source.cameraId, (held.get(source.cameraId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.set(source.cameraId, held.get(source.cameraId)! - 1);
      };
    },
  };
}
