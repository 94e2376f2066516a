// PTZ by camera: a command's {cameraId} becomes the stored host, PTZ protocol, port and credentials of the user's
// IP camera, so the browser drives a camera it never holds the password of.
import type { PtzConnection, PtzTarget } from "#app/schemas/ptz";
import type { DB } from "#db/index";
import { findCamera } from "./queries";
import { openCredentials } from "./source";
import { splitHostPort } from "./camera-url";
import { ProblemError } from "../errors";

/** The connection a PTZ command drives: as sent, or the user's IP camera's stored one (404 when not theirs or without PTZ). */
export async function ptzConnectionFor(db: DB, userId: string, target: PtzTarget): Promise<PtzConnection> {
  if (!("cameraId" in target)) return target;
  const row = await findCamera(db, userId, target.cameraId);
  if (!row || row.source !== "ip" || !row.ip_host) throw new ProblemError(404, "Camera not found", { errors: { "connection.cameraId": ["no such camera"] } });
  if (!row.ptz_protocol) throw new ProblemError(404, "This camera has no PTZ control", { errors: { "connection.cameraId": ["no PTZ control found on this camera"] } });
  const credentials = row.credentials ? openCredentials(row.credentials, userId) : null;
  return {
    ip: splitHostPort(row.ip_host).hostname,
    username: credentials?.username ?? "admin",
    password: credentials?.password ?? "admin",
    protocol: row.ptz_protocol as PtzConnection["protocol"],
    port: row.ptz_port ?? undefined,
  };
}
