// The spec's messages for camera failures (getUserMedia and friends).
const MESSAGES: Record<string, string> = {
  NotAllowedError: "Camera permission denied. Please allow camera access when prompted.",
  PermissionDeniedError: "Camera permission denied. Please allow camera access when prompted.",
  NotFoundError: "No camera found on this device.",
  DevicesNotFoundError: "No camera found on this device.",
  OverconstrainedError: "No camera found on this device.",
  NotReadableError: "Camera is already in use by another application.",
  TrackStartError: "Camera is already in use by another application.",
  NotSupportedError: "WebRTC is not supported in this browser.",
};

export function cameraErrorMessage(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === "string" && name in MESSAGES) return MESSAGES[name]!;
  return (error as { message?: string } | null)?.message || "Unknown error";
}

export const WEBCAM_CHECKLIST = ["Camera permissions are granted for this site", "No other application is using the camera", "Your browser supports WebRTC (camera access)"];

export function webcamFailureAlert(error: unknown): string {
  return `Unable to access webcam: ${cameraErrorMessage(error)}\n\nPlease check that:\n${WEBCAM_CHECKLIST.map((item) => `• ${item}`).join("\n")}`;
}
