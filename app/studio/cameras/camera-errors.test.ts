import { describe, expect, it } from "vitest";
import { cameraErrorMessage, webcamFailureAlert } from "./camera-errors";

describe("camera errors", () => {
  it.each([
    ["NotAllowedError", "Camera permission denied. Please allow camera access when prompted."],
    ["NotFoundError", "No camera found on this device."],
    ["NotReadableError", "Camera is already in use by another application."],
    ["NotSupportedError", "WebRTC is not supported in this browser."],
  ])("maps %s to the spec's message", (name, message) => {
    expect(cameraErrorMessage({ name, message: "raw" })).toBe(message);
  });

  it("falls back to the raw message, then 'Unknown error'", () => {
    expect(cameraErrorMessage(new Error("device busy"))).toBe("device busy");
    expect(cameraErrorMessage({})).toBe("Unknown error");
    expect(cameraErrorMessage(null)).toBe("Unknown error");
  });

  it("builds the 'Unable to access webcam' alert with the checklist", () => {
    const text = webcamFailureAlert({ name: "NotAllowedError" });
    expect(text).toMatch(/^Unable to access webcam: Camera permission denied\./);
    expect(text).toContain("No other application is using the camera");
  });
});
