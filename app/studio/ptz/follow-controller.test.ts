// Follow in the studio: when it may run (and says why not), each box result becoming one drive command, a stop
// only once, the preset recall, and the ways it ends (joystick, detection off, a failed command).
import { beforeEach, describe, expect, it } from "vitest";
import type { Box } from "../../schemas/vision";
import { DEFAULT_POINT_SETTINGS, DEFAULT_BOX_SETTINGS } from "../ai/detection-settings";
import type { DetectionState } from "../ai/detection-controller";
import { followCommands } from "./follow-commands";
import { FollowController, sanitizeFollowOptions } from "./follow-controller";
import { CommandRegistry } from "../commands";
import type { Notifier } from "../notifier";
import type { PtzState } from "./ptz-controller";
import { createStore, type Store } from "../store";
import { DEFAULT_FOLLOW, type Watch, type WatchInput } from "../../schemas/watch";

const connection = { ip: "127.0.0.5", username: "admin", password: "admin", protocol: "visca" as const, port: 5678 };
const box = (x: number, y: number): Box => ({ x_min: x - 0.05, x_max: x + 0.05, y_min: y - 0.1, y_max: y + 0.1 });

describe("FollowController", () => {
  let sent: { kind: string; body: Record<string, unknown> }[];
  let toasts: string[];
  let fail: boolean;
  /** How often Follow asked the detection loop for a round now. */
  let roundsAsked: number;
  let detection: Store<Pick<DetectionState, "box" | "point" | "results">>;
  let ptz: Store<Pick<PtzState, "mode" | "connection" | "held" | "speeds">>;
  let follow: FollowController;
  const notify: Notifier = { toast: (t) => void toasts.push(t.title), alert: (m) => void toasts.push(m) };
  /** Lets the queued command promises settle. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const result = (boxes: Box[], frameAt: number) => detection.set({ results: { kind: "box", cameraId: "c1", query: "person", boxes, points: [], frameAt } });

  beforeEach(() => {
    sent = [];
    toasts = [];
    fail = false;
    roundsAsked = 0;
    detection = createStore<Pick<DetectionState, "box" | "point" | "results">>({
      box: { ...DEFAULT_BOX_SETTINGS, enabled: true, boxQuery: "person" },
      point: DEFAULT_POINT_SETTINGS,
      results: null,
    });
    ptz = createStore<Pick<PtzState, "mode" | "connection" | "held" | "speeds">>({ mode: "ip", connection, held: null, speeds: { panTilt: 10, zoom: 8, focus: 8 } });
    follow = new FollowController({
      detection: { store: detection, detectNow: () => void roundsAsked++ },
      ptz: { store: ptz },
      notify,
      send: async (kind, _connection, body) => {
        sent.push({ kind, body });
        if (fail) throw new Error("The camera at 127.0.0.5:5678 is unreachable");
      },
    });
  });

  it("is unavailable, with the reason, without a PTZ connection or box detection", () => {
    const registry = new CommandRegistry({ follow });
    for (const command of followCommands) registry.register(command);
    expect(follow.unavailable()).toBeNull();
    ptz.set({ connection: null });
    expect(follow.unavailable()).toMatch(/^Follow needs a PTZ camera/);
    expect(registry.isEnabled("ptz.follow")).toBe(false);
    expect(registry.run("ptz.follow")).toBe(false);
    ptz.set({ connection, mode: "usb" });
    expect(follow.unavailable()).toMatch(/^Follow needs a PTZ camera/);
    ptz.set({ mode: "ip" });
    detection.set({ box: { ...detection.get().box, enabled: false } });
    expect(follow.unavailable()).toMatch(/^Follow needs Box Detection/);
    detection.set({ box: { ...detection.get().box, enabled: true } });
    expect(registry.run("ptz.follow")).toBe(true);
    expect(registry.isPressed("ptz.follow")).toBe(true);
  });

  it("turns each box result into one drive, stops once when centred, and recalls the preset when the subject is gone", async () => {
    follow.updateOptions({ returnPreset: 3, lostSeconds: 2 });
    follow.setEnabled(true);
    result([box(0.9, 0.2)], 0);
    await settle();
    expect(sent).toEqual([{ kind: "drive", body: { pan: expect.any(Number), tilt: expect.any(Number) } }]);
    expect(sent[0]!.body.pan).toBeGreaterThan(0);
    expect(sent[0]!.body.tilt).toBeGreaterThan(0);
    expect(follow.store.get().phase).toBe("following");
    // The subject is centred: one stop, and no more commands while it stays there.
    result([box(0.5, 0.5)], 1000);
    await settle();
    result([box(0.51, 0.5)], 2000);
    await settle();
    expect(sent.slice(1)).toEqual([{ kind: "drive", body: { pan: 0, tilt: 0 } }]);
    expect(follow.store.get().phase).toBe("centred");
    result([], 3000);
    await settle();
    expect(sent).toHaveLength(2);
    result([], 4000);
    await settle();
    expect(sent.slice(2)).toEqual([
      { kind: "drive", body: { pan: 0, tilt: 0 } },
      { kind: "preset", body: { action: "recall", number: 3 } },
    ]);
    expect(follow.store.get().phase).toBe("lost");
  });

  it("switched on, asks for a detection round now and follows that, not the result from before it was on", async () => {
    result([box(0.9, 0.5)], 0);
    follow.setEnabled(true);
    expect(roundsAsked).toBe(1);
    await settle();
    expect(sent).toEqual([]);
    result([box(0.1, 0.5)], 300);
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.pan).toBeLessThan(0);
    follow.setEnabled(false);
    expect(roundsAsked).toBe(1);
  });

  it("sends zoom only when zoom is on", async () => {
    follow.updateOptions({ zoom: true, targetHeight: 0.6 });
    follow.setEnabled(true);
    result([box(0.5, 0.5)], 0);
    await settle();
    expect(sent).toEqual([{ kind: "drive", body: { pan: 0, tilt: 0, zoom: expect.any(Number) } }]);
    expect(sent[0]!.body.zoom).toBeGreaterThan(0);
  });

  it("stops the camera and turns off when the joystick is used, detection stops, or a command fails", async () => {
    follow.setEnabled(true);
    result([box(0.9, 0.5)], 0);
    await settle();
    ptz.set({ held: { kind: "move", direction: "left" } });
    await settle();
    expect(follow.store.get()).toMatchObject({ enabled: false, phase: "off" });
    expect(sent.at(-1)).toEqual({ kind: "stop", body: { what: "all" } });
    expect(toasts).toEqual(["Follow stopped: the camera was moved by hand."]);

    ptz.set({ held: null });
    follow.setEnabled(true);
    result([box(0.1, 0.5)], 5000);
    await settle();
    detection.set({ box: { ...detection.get().box, enabled: false } });
    await settle();
    expect(follow.store.get().enabled).toBe(false);
    expect(sent.at(-1)).toEqual({ kind: "stop", body: { what: "all" } });

    detection.set({ box: { ...detection.get().box, enabled: true } });
    follow.setEnabled(true);
    fail = true;
    result([box(0.9, 0.9)], 9000);
    await settle();
    expect(follow.store.get().enabled).toBe(false);
    expect(toasts.at(-1)).toBe("Follow stopped");
  });

  it("repairs stored options", () => {
    expect(sanitizeFollowOptions({ zoom: "yes", targetHeight: 5, returnPreset: 2.5, lostSeconds: -3 })).toEqual({
      zoom: false,
      targetHeight: 0.9,
      returnPreset: null,
      lostSeconds: 1,
    });
    expect(sanitizeFollowOptions(null)).toEqual({ zoom: false, targetHeight: 0.4, returnPreset: null, lostSeconds: 5 });
  });
});

describe("FollowController on an IP camera the server watches", () => {
  const watched = (follow: Partial<Watch["follow"]> = {}): Watch => ({
    enabled: true,
    labels: ["car", "person"],
    fps: 5,
    width: 640,
    follow: { ...DEFAULT_FOLLOW, pausedAt: null, ...follow },
    status: "running",
    stats: null,
    statsAt: null,
    lastEventAt: null,
  });

  function harness(watch: Watch) {
    const sent: string[] = [];
    const saves: WatchInput[] = [];
    const toasts: string[] = [];
    const detection = createStore<Pick<DetectionState, "box" | "point" | "results">>({ box: DEFAULT_BOX_SETTINGS, point: DEFAULT_POINT_SETTINGS, results: null });
    const ptz = createStore<Pick<PtzState, "mode" | "connection" | "held" | "speeds">>({
      mode: "ip",
      connection: { cameraId: "cam-1" },
      held: null,
      speeds: { panTilt: 10, zoom: 8, focus: 8 },
    });
    const watches = createStore<{ watches: Record<string, Watch> }>({ watches: { "cam-1": watch } });
    const follow = new FollowController({
      detection: { store: detection, detectNow: () => undefined },
      ptz: { store: ptz },
      watch: {
        store: watches,
        save: async (cameraId, input) => {
          saves.push(input);
          watches.set((state) => ({ watches: { ...state.watches, [cameraId]: { ...state.watches[cameraId]!, follow: { ...input.follow!, pausedAt: null } } } }));
          return true;
        },
      },
      notify: { toast: (t) => void toasts.push(t.title), alert: (m) => void toasts.push(m) },
      send: async (kind) => void sent.push(kind),
    });
    return { follow, sent, saves, toasts, ptz, watches, detection };
  }

  it("switched on, sets the server's follow with the studio's options and drives nothing from the browser (no box detection needed)", async () => {
    const { follow, sent, saves, detection } = harness(watched());
    follow.updateOptions({ returnPreset: 4, lostSeconds: 9, zoom: true, targetHeight: 0.5 });
    expect(follow.unavailable()).toBeNull();
    follow.setEnabled(true);
    await Promise.resolve();
    expect(saves).toEqual([
      {
        enabled: true,
        labels: ["car", "person"],
        fps: 5,
        width: 640,
        follow: { ...DEFAULT_FOLLOW, enabled: true, label: "person", returnPreset: 4, lostSeconds: 9, zoom: true, targetHeight: 0.5, maxSpeed: 10 },
      },
    ]);
    expect(follow.store.get()).toMatchObject({ enabled: true, phase: "server" });
    detection.set({
      box: { ...DEFAULT_BOX_SETTINGS, enabled: true },
      results: { kind: "box", cameraId: "cam-1", query: "person", boxes: [box(0.9, 0.5)], points: [], frameAt: 0 },
    });
    await Promise.resolve();
    expect(sent).toEqual([]);
    // Leaving the studio leaves the server following.
    follow.dispose();
    expect(saves).toHaveLength(1);
  });

  it("shows the server's follow off once a manual move anywhere paused it, and the joystick here says so", () => {
    const paused = harness(watched({ enabled: true }));
    expect(paused.follow.store.get()).toMatchObject({ enabled: true, phase: "server" });
    paused.watches.set({ watches: { "cam-1": watched({ enabled: true, pausedAt: "2026-11-29T10:00:00.000Z" }) } });
    expect(paused.follow.store.get()).toMatchObject({ enabled: false, phase: "off" });

    const held = harness(watched({ enabled: true }));
    held.ptz.set({ held: { kind: "move", direction: "left" } });
    expect(held.follow.store.get().enabled).toBe(false);
    expect(held.toasts).toEqual(["Follow stopped: the camera was moved by hand."]);
    expect(held.saves).toEqual([]); // the joystick's own command paused it on the server
  });

  it("keeps the browser's follow for a camera the server does not watch", () => {
    const { follow, saves } = harness({ ...watched(), enabled: false });
    expect(follow.unavailable()).toMatch(/^Follow needs Box Detection/);
    follow.setEnabled(true);
    expect(saves).toEqual([]);
    expect(follow.store.get().enabled).toBe(false);
  });
});
