// IP camera rows for tests, written straight into a database (as the Add IP Camera API stores them): source 'ip',
// stream URLs without credentials, the login sealed like the app seals it. The one helper for vitest and Playwright
// (tests/e2e/seed.ts), so it takes the database and imports nothing from either runner.
import type { FakeIpCamera } from "../fakes/ip-camera/camera";
import type { DB } from "#db/index";

export interface IpCameraRow {
  name?: string;
  streamUrl: string;
  subStreamUrl?: string | null;
  snapshotUrl?: string | null;
  username?: string;
  password?: string;
  codec?: string | null;
  status?: "online" | "connecting" | "offline";
  /** PTZ found on it (as the PTZ check writes it); none by default. */
  ptzProtocol?: "onvif" | "visca" | "http-cgi" | null;
}

/** Inserts an IP camera owned by `userId` and returns its id. */
export async function insertIpCamera(db: DB, userId: string, row: IpCameraRow): Promise<string> {
  const { sealCredentials } = await import("#server/cameras/source");
  const inserted = await db
    .insertInto("cameras")
    .values({
      user_id: userId,
      name: row.name ?? "IP camera",
      model: "IP Camera",
      source: "ip",
      ip_host: new URL(row.streamUrl).host,
      stream_url: row.streamUrl,
      sub_stream_url: row.subStreamUrl ?? null,
      snapshot_url: row.snapshotUrl ?? null,
      credentials: row.username === undefined && row.password === undefined ? null : sealCredentials({ username: row.username ?? "", password: row.password ?? "" }, userId),
      video_codec: row.codec === undefined ? "h264" : row.codec,
      status: row.status ?? "offline",
      ptz_protocol: row.ptzProtocol ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The fake camera as the app would store it after discovery: main /1, sub /2, its login; no snapshot URL unless asked. */
export function fakeCameraRow(camera: FakeIpCamera, overrides: Partial<IpCameraRow> = {}): IpCameraRow {
  return { streamUrl: camera.rtspUrl("/1"), subStreamUrl: camera.rtspUrl("/2"), username: camera.username, password: camera.password, ...overrides };
}

/** A camera nobody answers for: loopback port 9 (discard) is closed, so an app that tries to pull it fails at once, on this machine only. */
export function closedCameraRow(name?: string): IpCameraRow {
  return { name, streamUrl: "rtsp://127.0.0.1:9/1" };
}

/** The test process reads config too (address policy for in-process supervisors): the same loopback allowances as the shared app. */
export function allowLoopbackCameras(dataDir: string) {
  process.env.PTZ_ALLOWED_NETWORKS = "127.0.0.0/8";
  process.env.PTZ_ALLOWED_PORTS = "1024-65535";
  process.env.DATA_DIR ??= dataDir;
}
