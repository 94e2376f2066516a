// A full-resolution JPEG of an IP camera (captures, monitors): the camera's own snapshot URL when it has one (one
// HTTP request, Digest or Basic), else one picture decoded from its main stream by a short-lived ffmpeg.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import sharp from "sharp";
import type { CameraOfflineReason } from "#app/schemas/cameras";
import { basicAuthorization, digestAuthorization, parseChallenge } from "../../net/digest-auth";
import type { CameraCredentials, CameraSource } from "../source";
import type { FfmpegBinary, FfmpegResolution } from "./ffmpeg-binary";
import { buildPullArgs } from "./pull-args";
import { openPull, pullTarget } from "./pull-target";
import { spawnFfmpeg } from "./spawn-ffmpeg";
import { offlineReason } from "./status";

export interface Snapshot {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** No picture could be had; `reason` is the card's offline reason. */
export class SnapshotError extends Error {
  override name = "SnapshotError";
  constructor(readonly reason: CameraOfflineReason) {
    super(`No picture from the camera: ${reason}`);
  }
}

const MAX_JPEG_BYTES = 20 * 1024 * 1024;

/** The GOP a running pull of the main stream keeps (init + fragments from the latest keyframe, one frame each). */
export interface KeptGop {
  init: Buffer;
  fragments: Buffer[];
}

/**
 * `running`: the current GOP when this process already pulls the camera's main stream unchanged (a camera with no
 * sub-stream): its newest frame is decoded from memory (tens of ms) instead of opening a second pull (about a second).
 */
export async function takeSnapshot(source: CameraSource, binary: FfmpegResolution, timeoutMs: number, running: KeptGop | null = null): Promise<Snapshot> {
  const jpeg = source.snapshotUrl
    ? await fetchSnapshot(source.snapshotUrl, source.credentials, timeoutMs)
    : running && binary.ok
      ? await decodeKept(binary.binary, running, timeoutMs)
      : await decodeOneFrame(source, binary, timeoutMs);
  const meta = await sharp(jpeg)
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height || meta.format !== "jpeg") throw new SnapshotError("unsupported codec");
  return { jpeg, width: meta.width, height: meta.height };
}

/** Decodes the kept GOP from stdin and keeps its last frame (one fragment per frame, so the count is known). */
async function decodeKept(binary: FfmpegBinary, gop: KeptGop, timeoutMs: number): Promise<Buffer> {
  const last = gop.fragments.length - 1;
  const args = [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    "-protocol_whitelist",
    "pipe",
    "-format_whitelist",
    "mov",
    "-f",
    "mp4",
    "-i",
    "pipe:0",
    "-map",
    "0:v:0",
    "-vf",
    `select=eq(n\\,${last})`,
    "-frames:v",
    "1",
    "-c:v",
    "mjpeg",
    "-q:v",
    "2",
    "-f",
    "image2pipe",
    "pipe:1",
  ];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const run = spawnFfmpeg(binary.path, args, { signal: controller.signal, input: Buffer.concat([gop.init, ...gop.fragments]) });
    const chunks: Buffer[] = [];
    run.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    const exit = await run.exited;
    const jpeg = Buffer.concat(chunks);
    if (exit.code === 0 && jpeg.length) return jpeg;
    throw new SnapshotError("unsupported codec");
  } finally {
    clearTimeout(timer);
  }
}

/** The main stream (full resolution), read until its first whole picture: connect, wait for a keyframe, decode one frame. */
async function decodeOneFrame(source: CameraSource, binary: FfmpegResolution, timeoutMs: number): Promise<Buffer> {
  if (!binary.ok) throw new SnapshotError("no ffmpeg");
  const stored = source.mainUrl ?? source.viewUrl;
  const fast = /^rtsps?:/i.test(stored);
  const first = await readOneJpeg(binary.binary, source, stored, timeoutMs, fast);
  if (typeof first !== "string") return first;
  // A camera whose SDP lacks SPS/PPS cannot be decoded without ffmpeg's stream analysis (see fastStart).
  if (fast && (first === "stream ended" || first === "unsupported codec")) {
    const second = await readOneJpeg(binary.binary, source, stored, timeoutMs, false);
    if (typeof second !== "string") return second;
    throw new SnapshotError(second);
  }
  throw new SnapshotError(first);
}

async function readOneJpeg(binary: FfmpegBinary, source: CameraSource, stored: string, timeoutMs: number, fastStart: boolean): Promise<Buffer | CameraOfflineReason> {
  const opened = await openPull(stored, source.credentials).catch(() => null);
  if (!opened) return "unreachable";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const run = spawnFfmpeg(binary.path, buildPullArgs(binary, { url: opened.url, timeoutMs, output: "jpeg", fastStart }), { signal: controller.signal });
    const chunks: Buffer[] = [];
    let size = 0;
    run.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_JPEG_BYTES) chunks.push(chunk);
      else controller.abort();
    });
    const exit = await run.exited;
    if (exit.code === 0 && size > 0 && size <= MAX_JPEG_BYTES) return Buffer.concat(chunks);
    if (opened.relay.upstreamError && !/\b401\b/.test(exit.stderr)) return "unreachable";
    return offlineReason(exit, false);
  } finally {
    clearTimeout(timer);
    opened.relay.close();
  }
}

/** GET the camera's snapshot URL at its checked address, answering a Digest or Basic challenge with the stored login. */
async function fetchSnapshot(stored: string, credentials: CameraCredentials | null, timeoutMs: number): Promise<Buffer> {
  const target = await pullTarget(stored).catch(() => {
    throw new SnapshotError("unreachable");
  });
  const url = new URL(target.url);
  const path = `${url.pathname}${url.search}`;
  let answer = await get(url, target.host, path, undefined, timeoutMs);
  if (answer.status === 401 && credentials) {
    const header = answer.challenge ?? "";
    const challenge = parseChallenge(header);
    const authorization = challenge
      ? digestAuthorization(challenge, { method: "GET", uri: path, ...credentials })
      : /^\s*basic/i.test(header)
        ? basicAuthorization(credentials.username, credentials.password)
        : undefined;
    if (authorization) answer = await get(url, target.host, path, authorization, timeoutMs);
  }
  if (answer.status === 401 || answer.status === 403) throw new SnapshotError("authentication failed");
  if (answer.status !== 200 || !answer.body.length) throw new SnapshotError("stream ended");
  return answer.body;
}

function get(url: URL, host: string, path: string, authorization: string | undefined, timeoutMs: number): Promise<{ status: number; challenge?: string; body: Buffer }> {
  const secure = url.protocol === "https:";
  const port = url.port || (secure ? "443" : "80");
  const headers: Record<string, string> = { Host: url.port ? `${host}:${url.port}` : host, Accept: "image/jpeg" };
  if (authorization) headers.Authorization = authorization;
  return new Promise((resolve, reject) => {
    const options = { host: url.hostname.replace(/^\[|\]$/g, ""), port, path, method: "GET", headers, timeout: timeoutMs, servername: secure ? host : undefined };
    const onAnswer = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_JPEG_BYTES) return void req.destroy(new SnapshotError("stream ended"));
        chunks.push(chunk);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, challenge: [res.headers["www-authenticate"] ?? ""].flat().join(", "), body: Buffer.concat(chunks) }));
      res.on("error", () => reject(new SnapshotError("unreachable")));
    };
    const req = secure ? httpsRequest(options, onAnswer) : httpRequest(options, onAnswer);
    req.on("timeout", () => req.destroy(new SnapshotError("unreachable")));
    req.on("error", (error) => reject(error instanceof SnapshotError ? error : new SnapshotError("unreachable")));
    req.end();
  });
}
