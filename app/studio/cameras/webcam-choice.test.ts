import { describe, expect, it } from "vitest";
import { chooseWebcam, normaliseLabel } from "./webcam-choice";

const brio = { deviceId: "id-brio", label: "Logitech BRIO (046d:085e)" };
const facetime = { deviceId: "id-facetime", label: "FaceTime HD Camera" };

describe("chooseWebcam", () => {
  it("opens the saved device id when this browser has it", () => {
    expect(chooseWebcam({ deviceId: "id-brio", labels: ["FaceTime HD Camera"] }, [facetime, brio])).toEqual({ by: "deviceId", device: brio });
  });

  it("falls back to a camera with the same label (ids differ between browsers)", () => {
    expect(chooseWebcam({ deviceId: "other-browser-id", labels: ["Logitech BRIO"] }, [facetime, brio])).toEqual({ by: "label", device: brio });
    // The recorded device label wins over the (renamed) camera name.
    expect(chooseWebcam({ deviceId: "x", labels: ["facetime hd camera", "Logitech BRIO"] }, [brio, facetime])).toEqual({ by: "label", device: facetime });
  });

  it("uses the camera this browser chose in its place before", () => {
    expect(chooseWebcam({ deviceId: "x", labels: ["Studio cam"], substituteId: "id-facetime" }, [brio, facetime])).toEqual({ by: "substitute", device: facetime });
  });

  it("offers any camera, never opens one unasked, when nothing matches", () => {
    expect(chooseWebcam({ deviceId: "x", labels: ["Studio cam"], substituteId: "gone" }, [brio, facetime])).toEqual({ by: "offer", devices: [brio, facetime] });
    expect(chooseWebcam({ deviceId: "x", labels: [""] }, [brio])).toEqual({ by: "offer", devices: [brio] });
  });

  it("has nothing to offer on a device without cameras", () => {
    expect(chooseWebcam({ deviceId: "x", labels: ["Logitech BRIO"] }, [])).toEqual({ by: "none" });
  });
});

describe("normaliseLabel", () => {
  it("ignores Chrome's USB ids, case and spacing", () => {
    expect(normaliseLabel("  HD Pro  Webcam C920 (046d:082d)")).toBe("hd pro webcam c920");
    expect(normaliseLabel("HD Pro Webcam C920")).toBe("hd pro webcam c920");
  });
});
