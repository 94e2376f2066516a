import { describe, expect, it } from "vitest";
import { DEFAULT_FOLLOW, type Watch } from "#app/schemas/watch";
import { watchLines } from "./watch-text";

const NOW = Date.parse("2026-01-01T12:00:00Z");
const OFF: Watch = {
  enabled: false,
  labels: ["person"],
  fps: 5,
  width: 640,
  follow: { ...DEFAULT_FOLLOW, pausedAt: null },
  status: "off",
  stats: null,
  statsAt: null,
  lastEventAt: null,
};
const STATS = { state: "running" as const, reason: null, decodeFps: 5, detectFps: 2.06, droppedFrames: 3, detectorMs: 210.4, cpuPercent: 44.6, tracks: 2 };
const words = (reason: string) => (reason === "unreachable" ? "connection refused or no answer" : reason);

describe("watchLines", () => {
  it("says nothing while off, waiting while on with no pipeline yet (or starting)", () => {
    expect(watchLines(OFF, NOW, words)).toBeNull();
    expect(watchLines({ ...OFF, enabled: true, status: "waiting" }, NOW, words)).toEqual(["Watching: waiting for the server…"]);
    expect(watchLines({ ...OFF, enabled: true, status: "starting", stats: { ...STATS, state: "starting" } }, NOW, words)).toEqual(["Watching: waiting for the server…"]);
  });

  it("gives a running pipeline's figures and its last event, and a stalled one's reason in the card's words", () => {
    const running: Watch = { ...OFF, enabled: true, status: "running", stats: STATS, lastEventAt: "2026-01-01T11:58:00Z" };
    expect(watchLines(running, NOW, words)).toEqual(["Watching with local vision", "5.0 fps · detector 2.1 fps, 210 ms · 3 dropped · CPU 45 %", "last event 2 min ago"]);
    const stalled: Watch = { ...OFF, enabled: true, status: "stalled", stats: { ...STATS, state: "stalled", reason: "unreachable" } };
    expect(watchLines(stalled, NOW, words)).toEqual(["Watching: stalled — connection refused or no answer"]);
    expect(watchLines({ ...stalled, stats: { ...STATS, state: "stalled", reason: null } }, NOW, words)).toEqual(["Watching: stalled — no frames from the camera"]);
  });
});
