// Webcam access: permission, the list of video inputs, and opening a device with the chosen constraints.
import { cameraErrorMessage } from "./camera-errors";

export interface VideoConstraints {
  width?: number | null;
  height?: number | null;
  frameRate?: number | null;
}

export interface WebcamDevice {
  deviceId: string;
  label: string;
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

/** Whether a device id is still present (without prompting). */
export async function isDevicePresent(deviceId: string): Promise<boolean | "unknown"> {
  try {
    const all = await mediaDevices().enumerateDevices();
    const inputs = all.filter((d) => d.kind === "videoinput");
    if (inputs.every((d) => !d.deviceId)) return "unknown"; // no permission yet: ids are hidden
    return inputs.some((d) => d.deviceId === deviceId);
  } catch {
    return "unknown";
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

export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

export { cameraErrorMessage };
