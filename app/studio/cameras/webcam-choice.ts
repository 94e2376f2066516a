// Which local camera a saved webcam opens as: a saved camera lives on the server, but device ids are per
// browser, so on another device or browser the saved id is unknown. Try the saved id, then a camera with
// the same label, then the one this browser was told to use instead; otherwise offer any camera (one click).
import type { WebcamDevice } from "./webcam-types";

export interface SavedWebcam {
  deviceId: string | null;
  /** Labels the saved camera may carry: the device label recorded when it was added, then its name. */
  labels: string[];
  /** The camera this browser used in its place last time ("Use this device's camera"), if any. */
  substituteId?: string | null | undefined;
}

export type WebcamChoice =
  | { by: "deviceId" | "label" | "substitute"; device: WebcamDevice }
  /** Nothing matches, but this device has cameras: one may be used with the user's consent. */
  | { by: "offer"; devices: WebcamDevice[] }
  | { by: "none" };

/** Chrome adds the USB vendor:product to labels ("HD Pro Webcam C920 (046d:082d)"); other browsers don't. */
export function normaliseLabel(label: string): string {
  return label
    .replace(/\s*\([0-9a-f]{4}:[0-9a-f]{4}\)\s*$/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

export function chooseWebcam(saved: SavedWebcam, devices: WebcamDevice[]): WebcamChoice {
  if (devices.length === 0) return { by: "none" };
  const exact = saved.deviceId ? devices.find((d) => d.deviceId === saved.deviceId) : undefined;
  if (exact) return { by: "deviceId", device: exact };
  for (const label of saved.labels.map(normaliseLabel).filter(Boolean)) {
    const same = devices.find((d) => normaliseLabel(d.label) === label);
    if (same) return { by: "label", device: same };
  }
  const substitute = saved.substituteId ? devices.find((d) => d.deviceId === saved.substituteId) : undefined;
  if (substitute) return { by: "substitute", device: substitute };
  return { by: "offer", devices };
}
