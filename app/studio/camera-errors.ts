// The spec's messages for camera failures (getUserMedia and friends).
export function cameraErrorMessage(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
      return "Camera permission denied. Please allow camera access when prompted.";
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return "No camera found on this device.";
    case "NotReadableError":
    case "TrackStartError":
      return "Camera is already in use by another application.";
    case "NotSupportedError":
      return "WebRTC is not supported in this browser.";
    default:
      return (error as { message?: string } | null)?.message || "Unknown error";
  }
}

export const WEBCAM_CHECKLIST = [
  "Camera permissions are granted for this site",
  "No other application is using the camera",
  "Your browser supports WebRTC (camera access)",
];

export function webcamFailureAlert(error: unknown): string {
  return `Unable to access webcam: ${cameraErrorMessage(error)}\n\nPlease check that:\n${WEBCAM_CHECKLIST.map((item) => `• ${item}`).join("\n")}`;
}
