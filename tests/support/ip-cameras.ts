// IP camera rows for tests, written straight into the shared database (as the Add IP Camera API will store them):
// source 'ip', stream URLs without credentials, the login sealed like the app seals it.
import { inject } from "vitest";
import type { FakeIpCamera } from "../fakes/ip-camera/camera";
import { useSharedDatabase as openSharedDatabase } from "./in-process";

export interface IpCameraRow {
  name?: string;
  streamUrl: string;
  subStreamUrl?: string | null;
  snapshotUrl?: string | null;
  username?: string;
  password?: string;
  codec?: string | null;
}

/** Inserts an IP camera owned by `userId` and returns its id. */
export async function insertIpCamera(userId: string, row: IpCameraRow): Promise<string> {
  await openSharedDatabase();
  const { db } = await import("#db/index");
  const { sealCredentials } = await import("#server/cameras/source");
  const host = new URL(row.streamUrl).host;
  const inserted = await db()
    .insertInto("cameras")
    .values({
      user_id: userId,
      name: row.name ?? "IP camera",
      model: "IP Camera",
      source: "ip",
      ip_host: host,
      stream_url: row.streamUrl,
      sub_stream_url: row.subStreamUrl ?? null,
      snapshot_url: row.snapshotUrl ?? null,
      credentials: row.username === undefined && row.password === undefined ? null : sealCredentials({ username: row.username ?? "", password: row.password ?? "" }, userId),
      video_codec: row.codec === undefined ? "h264" : row.codec,
      status: "offline",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The fake camera as the app would store it after discovery: main /1, sub /2, its login; no snapshot URL unless asked. */
export function fakeCameraRow(camera: FakeIpCamera, overrides: Partial<IpCameraRow> = {}): IpCameraRow {
  return { streamUrl: camera.rtspUrl("/1"), subStreamUrl: camera.rtspUrl("/2"), username: camera.username, password: camera.password, ...overrides };
}

/** The test process reads config too (address policy for in-process supervisors): the same loopback allowances as the shared app. */
export function allowLoopbackCameras() {
  process.env.PTZ_ALLOWED_NETWORKS = "127.0.0.0/8";
  process.env.PTZ_ALLOWED_PORTS = "1024-65535";
  process.env.DATA_DIR ??= inject("dataDir");
}
