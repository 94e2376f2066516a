// Where an IP camera's pictures come from, as the stream supervisor and the monitors need it: the URLs to pull
// and the credentials to log in with (decrypted here, on the server only; never part of a browser answer).
import type { DB } from "#db/index";
import { config } from "../config";
import { notFound } from "../errors";
import { decryptApiKey, encryptApiKey } from "../secret-box";
import * as q from "./queries";

export interface CameraCredentials {
  username: string;
  password: string;
}

export interface CameraSource {
  cameraId: string;
  userId: string;
  /** What viewers watch: the sub-stream when the camera has one, else the main stream. No credentials inside. */
  viewUrl: string;
  /** The main stream, for full-resolution captures, when it differs from viewUrl. */
  mainUrl: string | null;
  /** An HTTP(S) JPEG snapshot of the main stream, when the camera has one. */
  snapshotUrl: string | null;
  credentials: CameraCredentials | null;
  /** The codec found when the camera was added (h264, hevc, mjpeg...); anything but h264 is transcoded. */
  codec: string | null;
}

/** The IP camera's source, for its owner only; 404 for another user's camera or one that is not an IP camera. */
export async function loadCameraSource(db: DB, userId: string, cameraId: string): Promise<CameraSource> {
  const row = await q.findCamera(db, userId, cameraId);
  if (!row || row.source !== "ip" || !row.stream_url) throw notFound("Camera");
  return {
    cameraId: row.id,
    userId: row.user_id,
    viewUrl: row.sub_stream_url ?? row.stream_url,
    mainUrl: row.sub_stream_url ? row.stream_url : null,
    snapshotUrl: row.snapshot_url,
    credentials: row.credentials ? openCredentials(row.credentials, userId) : null,
    codec: row.video_codec,
  };
}

/** Encrypts a camera login for the cameras.credentials column (AES-256-GCM, bound to the owner). */
export function sealCredentials(credentials: CameraCredentials, userId: string): string {
  return encryptApiKey(JSON.stringify(credentials), userId, config().encryptionKey);
}

/** The login sealed by sealCredentials, or null when ENCRYPTION_KEY changed since. */
export function openCredentials(ciphertext: string, userId: string): CameraCredentials | null {
  const text = decryptApiKey(ciphertext, userId, config().encryptionKey);
  if (text === null) return null; // ENCRYPTION_KEY changed: the stream will report "authentication failed"
  const parsed = JSON.parse(text) as CameraCredentials;
  return { username: parsed.username, password: parsed.password };
}
