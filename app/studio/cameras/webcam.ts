// Webcam access: permission, the list of video inputs, opening a device with the chosen constraints, and
// opening a saved webcam on whatever device or browser the studio is used from.
import type { Camera } from "../../schemas/cameras";
import { cameraErrorMessage } from "./camera-errors";
import { loadJson, saveJson } from "../settings";
import { chooseWebcam } from "./webcam-choice";
import type { WebcamDevice } from "./webcam-types";

export interface VideoConstraints {
  width?: number | null;
  height?: number | null;
  frameRate?: number | null;
}

function mediaDevices(): MediaDevices {
  if (typeof navigator === "undefined" || !navigator.mediaDevices?.getUserMedia) {
    throw Object.assign(new Error("WebRTC is not supported in this browser."), { name: "NotSupportedError" });
  }
  return navigator.mediaDevices;
}

/** Lists video inputs, asking for permission first so that labels and ids are real. */
export async function listWebcams(): Promise<WebcamDevice[]> {
  const devices = mediaDevices();
  const probe = await devices.getUserMedia({ video: true, audio: false });
  probe.getTracks().forEach((track) => track.stop());
  const all = await devices.enumerateDevices();
  return all
    .filter((device) => device.kind === "videoinput" && device.deviceId)
    .map((device, index) => ({ deviceId: device.deviceId, label: device.label || `Camera ${index + 1}` }));
}

/** This browser's video inputs without prompting; null while camera permission is not granted (ids are hidden). */
export async function knownWebcams(): Promise<WebcamDevice[] | null> {
  try {
    const inputs = (await mediaDevices().enumerateDevices()).filter((d) => d.kind === "videoinput");
    if (inputs.every((d) => !d.deviceId)) return null;
    return inputs.filter((d) => d.deviceId).map((d) => ({ deviceId: d.deviceId, label: d.label }));
  } catch {
    return null;
  }
}

export async function openWebcam(deviceId: string | null, constraints: VideoConstraints = {}): Promise<MediaStream> {
  const video: MediaTrackConstraints = {
    ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    ...(constraints.width ? { width: { ideal: constraints.width } } : {}),
    ...(constraints.height ? { height: { ideal: constraints.height } } : {}),
    ...(constraints.frameRate ? { frameRate: { ideal: constraints.frameRate } } : {}),
  };
  return mediaDevices().getUserMedia({ video, audio: false });
}

export type WebcamMatch = "deviceId" | "label" | "substitute" | "chosen" | "default";

export type SavedWebcamResult =
  | { kind: "live"; stream: MediaStream; label: string; by: WebcamMatch }
  /** The saved camera is not here, but this device has others: one opens with the user's consent. */
  | { kind: "offer" }
  | { kind: "none" };

const SUBSTITUTES_KEY = "webcamSubstitutes";

/** Per browser: the local camera chosen in place of a saved webcam that isn't here (camera id → device id). */
function substitutes(): Record<string, string> {
  const raw = loadJson(SUBSTITUTES_KEY);
  return raw && typeof raw === "object" ? (raw as Record<string, string>) : {};
}

function isMissingDevice(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "OverconstrainedError" || name === "NotFoundError";
}

function liveTrackLabel(stream: MediaStream, fallback: string): string {
  return stream.getVideoTracks()[0]?.label || fallback || "this device's camera";
}

function cameraConstraints(camera: Camera): VideoConstraints {
  return { width: camera.videoWidth, height: camera.videoHeight, frameRate: camera.frameRate };
}

/**
 * Opens a saved webcam here: by its device id, else a camera with the same label, else the one chosen
 * in its place before in this browser. Never opens an unrelated camera unasked (that is `openAnyWebcam`).
 * Rejects with the getUserMedia error (permission denied, camera busy).
 */
export async function openSavedWebcam(camera: Camera): Promise<SavedWebcamResult> {
  const constraints = cameraConstraints(camera);
  if (!camera.deviceId) {
    const stream = await openWebcam(null, constraints);
    return { kind: "live", stream, label: liveTrackLabel(stream, ""), by: "default" };
  }
  let devices = await knownWebcams();
  if (devices === null) {
    // Ids stay hidden until camera permission is granted: asking for the saved device prompts once.
    try {
      const stream = await openWebcam(camera.deviceId, constraints);
      return { kind: "live", stream, label: liveTrackLabel(stream, ""), by: "deviceId" };
    } catch (error) {
      if (!isMissingDevice(error)) throw error;
      devices = (await knownWebcams()) ?? [];
    }
  }
  const labels = [camera.deviceLabel, camera.name].filter((label): label is string => Boolean(label));
  const choice = chooseWebcam({ deviceId: camera.deviceId, labels, substituteId: substitutes()[camera.id] }, devices);
  if (choice.by === "offer") return { kind: "offer" };
  if (choice.by === "none") return { kind: "none" };
  const stream = await openWebcam(choice.device.deviceId, constraints);
  return { kind: "live", stream, label: liveTrackLabel(stream, choice.device.label), by: choice.by };
}

/** "Use this device's camera": opens this device's default camera for a saved webcam and remembers it here. */
export async function openAnyWebcam(camera: Camera): Promise<SavedWebcamResult & { kind: "live" }> {
  const stream = await openWebcam(null, cameraConstraints(camera));
  const deviceId = stream.getVideoTracks()[0]?.getSettings().deviceId;
  if (deviceId) saveJson(SUBSTITUTES_KEY, { ...substitutes(), [camera.id]: deviceId });
  return { kind: "live", stream, label: liveTrackLabel(stream, ""), by: "chosen" };
}

export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

export { cameraErrorMessage };
