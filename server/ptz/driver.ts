// The one interface every camera protocol implements, and the failures the API turns into problem responses.
import type { ExposureSetting, PtzDirection, PtzProtocol } from "#app/schemas/ptz";

export type PanTiltDirection = Exclude<PtzDirection, "home">;
export type LensDirection = "in" | "out";
export type FocusDirection = "near" | "far" | "auto";
export type StopTarget = "move" | "zoom" | "focus";

/** What manual exposure the session has set, so settings that share one camera control (temperature and tint) stay consistent. */
export interface ExposureState {
  temperature: number;
  tint: number;
}

/** Where a driver talks to: the address already checked against the allowed networks, and the credentials. */
export interface CameraTarget {
  /** The resolved, allowed IP literal the driver connects to (never re-resolved, so DNS cannot swap it). */
  address: string;
  /** What the user typed, for messages. */
  ip: string;
  port: number;
  username: string;
  password: string;
}

export interface PtzDriver {
  readonly protocol: PtzProtocol;
  /** Verifies the camera answers with these credentials; returns its model. */
  identify(): Promise<string>;
  /** Starts a continuous pan/tilt at speed 1–24 until stop. */
  move(direction: PanTiltDirection, speed: number): Promise<void>;
  /** Auto-tracking: pan and tilt at their own signed speeds −24…24 (right / up positive, 0 = axis still, both 0 = stop). */
  drive(pan: number, tilt: number): Promise<void>;
  home(): Promise<void>;
  zoom(direction: LensDirection, speed: number): Promise<void>;
  focus(direction: FocusDirection, speed: number): Promise<void>;
  stop(what: StopTarget): Promise<void>;
  savePreset(number: number, name: string): Promise<void>;
  recallPreset(number: number): Promise<void>;
  deletePreset(number: number): Promise<void>;
  setExposure(setting: ExposureSetting, value: number | "auto" | "manual", state: ExposureState): Promise<void>;
  /** Frees sockets; the pool calls it when the camera has been idle. */
  close(): void;
}

export type PtzFailureKind = "unreachable" | "auth" | "unsupported" | "refused" | "camera";

/** A camera failure with a message fit for the operator; never carries credentials. */
export class PtzError extends Error {
  constructor(
    readonly kind: PtzFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "PtzError";
  }
}

/**
 * One wording for every way a camera can fail to answer (refused, reset, timed out, no route, no such name): which
 * one it was would tell a port scanner what a refused port looks like. `why` is for the server log only.
 */
export const unreachable = (target: Pick<CameraTarget, "ip" | "port">, why = "did not answer") =>
  Object.assign(new PtzError("unreachable", `The camera at ${target.ip}:${target.port} is unreachable: check its address, port and network`), { why });
export const authFailed = (target: Pick<CameraTarget, "ip">) => new PtzError("auth", `The camera at ${target.ip} refused the username or password`);
export const unsupported = (target: Pick<CameraTarget, "ip">, what: string) => new PtzError("unsupported", `The camera at ${target.ip} does not support ${what}`);

/** Pan/tilt signs per direction: x right positive, y up positive. */
export const DIRECTION_VECTORS: Record<PanTiltDirection, { x: -1 | 0 | 1; y: -1 | 0 | 1 }> = {
  up: { x: 0, y: 1 },
  down: { x: 0, y: -1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  "up-left": { x: -1, y: 1 },
  "up-right": { x: 1, y: 1 },
  "down-left": { x: -1, y: -1 },
  "down-right": { x: 1, y: -1 },
};

/** 1–24 onto a camera's 0–7 lens speed (zoom and focus on VISCA and HTTP-CGI). */
export function lensSpeed(speed: number): number {
  return Math.max(0, Math.min(7, Math.round((speed * 7) / 24)));
}

/** VISCA and PTZOptics tilt tops out at 20 while pan goes to 24. */
export function tiltSpeed(speed: number): number {
  return Math.max(1, Math.min(20, speed));
}

/** A signed drive speed as a direction sign and a magnitude within 1…max (0 stays 0). */
export function signedSpeed(speed: number, max: number): { sign: -1 | 0 | 1; speed: number } {
  const rounded = Math.round(speed);
  if (rounded === 0) return { sign: 0, speed: 0 };
  return { sign: rounded < 0 ? -1 : 1, speed: Math.max(1, Math.min(max, Math.abs(rounded))) };
}

/** Deadline for any one camera exchange, so every API call answers within 5 s. */
export const CAMERA_TIMEOUT_MS = 4000;
