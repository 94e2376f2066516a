// The assistant's tip/detail rules, hidden empty sections, settings repair, the raw base64 it sends.
import { describe, expect, it } from "vitest";
import { adviceEntries, adviceTipDetail, effectiveLook, sanitizeAssistantSettings, stripDataUrl } from "./assistant-advice";

describe("adviceTipDetail", () => {
  it("takes a string's first sentence as the tip and the whole text as the detail", () => {
    expect(adviceTipDetail("Slightly cool. Warm it a little by 200 K.")).toEqual({ tip: "Slightly cool.", detail: "Slightly cool. Warm it a little by 200 K." });
    expect(adviceTipDetail("Is it sharp? Yes")).toEqual({ tip: "Is it sharp?", detail: "Is it sharp? Yes" });
  });

  it("falls back to the first 50 characters when there is no sentence end", () => {
    const text = "a long run-on remark without any full stop that goes on and on";
    expect(adviceTipDetail(text)).toEqual({ tip: text.slice(0, 50), detail: text });
  });

  it("does not cut inside numbers like 5.6", () => {
    expect(adviceTipDetail("Open up to f/5.6 for more light. Then check.")?.tip).toBe("Open up to f/5.6 for more light.");
  });

  it("uses an object's tip and detail, and hides entries lacking both", () => {
    expect(adviceTipDetail({ tip: "Add fill.", detail: "Shadows are deep." })).toEqual({ tip: "Add fill.", detail: "Shadows are deep." });
    expect(adviceTipDetail({ tip: "", detail: "" })).toBeNull();
    expect(adviceTipDetail("   ")).toBeNull();
    expect(adviceTipDetail(null)).toBeNull();
  });
});

describe("adviceEntries", () => {
  it("lists the sections in order with labels, skipping empty ones", () => {
    const entries = adviceEntries({ exposure: "Fine.", whiteBalance: null, focus: { tip: "Sharp.", detail: "Edges crisp." }, lighting: "", overall: "Close." });
    expect(entries.map((e) => e.label)).toEqual(["Exposure", "Focus", "Overall"]);
  });
});

describe("assistant settings", () => {
  it("defaults to Natural and a 30 s interval, clamped to 10–300", () => {
    expect(sanitizeAssistantSettings(null)).toMatchObject({ targetLook: "Natural", intervalSeconds: 30 });
    expect(sanitizeAssistantSettings({ intervalSeconds: 5 }).intervalSeconds).toBe(10);
    expect(sanitizeAssistantSettings({ intervalSeconds: 1000 }).intervalSeconds).toBe(300);
    expect(sanitizeAssistantSettings({ targetLook: "Vaporwave" }).targetLook).toBe("Natural");
  });

  it("sends the custom text for Custom, and nothing when it is blank", () => {
    expect(effectiveLook({ targetLook: "Custom", customLook: " moody noir " })).toBe("moody noir");
    expect(effectiveLook({ targetLook: "Custom", customLook: "  " })).toBe("");
    expect(effectiveLook({ targetLook: "Talk Show", customLook: "x" })).toBe("Talk Show");
  });

  it("strips the data-URL prefix", () => {
    expect(stripDataUrl("data:image/jpeg;base64,AAAA")).toBe("AAAA");
    expect(stripDataUrl("AAAA")).toBe("AAAA");
  });
});
