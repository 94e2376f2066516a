// The browser side of PTZ: held moves repeat inside the watchdog and always end, speeds debounce, helpers.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Notifier } from "../notifier";
import { clampToCapability, directionToward, freePresetNumber, HEARTBEAT_MS, PtzController, SPEED_DEBOUNCE_MS } from "./ptz-controller";
import { CommandRegistry } from "../commands";
import { ptzCommands } from "./ptz-commands";
import type { CamerasState } from "../cameras/cameras";
import { createStore } from "../store";
import type { ViewState } from "../view";

describe("helpers", () => {
  it("picks the compass direction toward a click (y grows downwards)", () => {
    expect(directionToward(1, 0)).toBe("right");
    expect(directionToward(0, -1)).toBe("up");
    expect(directionToward(-0.7, 0.7)).toBe("down-left");
    expect(directionToward(0.5, -0.45)).toBe("up-right");
  });

  it("never picks a reserved preset slot", () => {
    expect(freePresetNumber([])).toBe(1);
    expect(freePresetNumber(Array.from({ length: 89 }, (_, i) => i + 1))).toBe(100);
    expect(freePresetNumber([...Array.from({ length: 89 }, (_, i) => i + 1), ...Array.from({ length: 50 }, (_, i) => i + 100)])).toBe(152);
  });

  it("clamps webcam values to min, max and step", () => {
    expect(clampToCapability(300, { min: 0, max: 255, step: 1 })).toBe(255);
    expect(clampToCapability(1.3, { min: 1, max: 4, step: 0.5 })).toBe(1.5);
    expect(clampToCapability(-5, { min: 0, max: 10 })).toBe(0);
    expect(clampToCapability(7.4, { min: 0, max: 10, step: 0 })).toBe(7);
  });
});

describe("PtzController", () => {
  let calls: { url: string; body: Record<string, unknown> }[];
  let notices: string[];
  let controller: PtzController;
  // The narrow host: the selected camera and the preview's clicks.
  const cameras = { store: createStore<CamerasState>({ camerasLoading: false, cameras: [], selectedCameraId: null, sources: {} }) };
  const view = { store: createStore<ViewState>({ showGrid: false, dialog: null, lastClick: null }) };
  const notify: Notifier = { toast: (t) => void notices.push(t.title), alert: (m) => void notices.push(m) };

  beforeEach(() => {
    vi.useFakeTimers();
    // Node has no DOM: an EventTarget stands in for window and document (blur, visibilitychange, pagehide).
    vi.stubGlobal("window", new EventTarget());
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    calls = [];
    notices = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body ?? "{}")) as Record<string, unknown> });
      const answer = url === "/api/ptz/connect" ? { ip: "127.0.0.5", port: 80, protocol: "onvif", model: "Cam" } : url.startsWith("/api/presets") ? [] : { ok: true };
      return new Response(JSON.stringify(answer), { status: 200 });
    });
    controller = new PtzController({ cameras, view }, notify);
  });
  afterEach(() => {
    controller.dispose();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("asks for an IP address, defaults the credentials to admin, and skips commands while disconnected", async () => {
    await controller.connect({ ip: "  ", username: "", password: "" });
    expect(notices).toEqual(["Please enter an IP address"]);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    controller.press({ kind: "move", direction: "up" });
    expect(warn).toHaveBeenCalledWith("PTZ command skipped: no PTZ connection");
    expect(calls).toEqual([]);
    await controller.connect({ ip: " 127.0.0.5 ", username: "", password: "" });
    expect(calls[0]).toEqual({ url: "/api/ptz/connect", body: { connection: { ip: "127.0.0.5", username: "admin", password: "admin" } } });
    expect(controller.store.get().connection).toMatchObject({ ip: "127.0.0.5", protocol: "onvif", port: 80 });
  });

  it("binds the controls to a selected IP camera with PTZ (by its id), and gives the form's connection back after", async () => {
    await controller.connect({ ip: "127.0.0.5", username: "u", password: "p" });
    const ipCamera = { id: "11111111-1111-4111-8111-111111111111", name: "Stage", source: "ip", ip: { host: "127.0.0.9", ptzProtocol: "visca" } };
    const webcam = { id: "22222222-2222-4222-8222-222222222222", name: "Desk", source: "device", ip: null };
    cameras.store.set({ cameras: [ipCamera, webcam] as unknown as CamerasState["cameras"], selectedCameraId: ipCamera.id });
    expect(controller.store.get().connection).toEqual({ cameraId: ipCamera.id });
    calls = [];
    controller.press({ kind: "move", direction: "up" });
    controller.release();
    await controller.exposure("gain", 6);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => [c.url, c.body.connection])).toEqual([
      ["/api/ptz/move", { cameraId: ipCamera.id }],
      ["/api/ptz/stop", { cameraId: ipCamera.id }],
      ["/api/exposure", { cameraId: ipCamera.id }],
    ]);
    cameras.store.set({ selectedCameraId: webcam.id });
    expect(controller.store.get().connection).toMatchObject({ ip: "127.0.0.5", protocol: "onvif" });
    cameras.store.set({ cameras: [], selectedCameraId: null });
  });

  it("repeats a held move every second and stops on release, blur and a hidden page", async () => {
    await controller.connect({ ip: "127.0.0.5", username: "u", password: "p" });
    calls = [];
    controller.press({ kind: "move", direction: "left" });
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 2 + 10);
    expect(calls.map((c) => c.url)).toEqual(["/api/ptz/move", "/api/ptz/move", "/api/ptz/move"]);
    expect(calls[0]!.body).toMatchObject({ direction: "left", speed: 10 });
    controller.release();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 3);
    expect(calls.map((c) => c.url).slice(3)).toEqual(["/api/ptz/stop"]);
    expect(calls[3]!.body).toMatchObject({ what: "move" });

    calls = [];
    controller.press({ kind: "zoom", direction: "in" });
    window.dispatchEvent(new Event("blur"));
    await vi.advanceTimersByTimeAsync(10);
    controller.press({ kind: "focus", direction: "far" });
    Object.assign(document, { visibilityState: "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => [c.url, c.body.direction ?? c.body.what])).toEqual([
      ["/api/ptz/zoom", "in"],
      ["/api/ptz/stop", "zoom"],
      ["/api/ptz/focus", "far"],
      ["/api/ptz/stop", "focus"],
    ]);
  });

  it("hotkeys press on keydown and release on keyup through the command registry", async () => {
    await controller.connect({ ip: "127.0.0.5", username: "u", password: "p" });
    calls = [];
    const registry = new CommandRegistry({ ptz: controller });
    ptzCommands.forEach((command) => registry.register(command));
    const key = (k: string) =>
      ({
        key: k,
        target: { tagName: "BODY" },
        repeat: false,
        ctrlKey: false,
        metaKey: false,
        altKey: false,
        defaultPrevented: false,
        preventDefault: () => {},
      }) as unknown as KeyboardEvent;
    registry.handleKeyDown(key("ArrowUp"));
    registry.handleKeyUp(key("ArrowUp"));
    registry.handleKeyDown(key("_"));
    registry.handleKeyUp(key("_"));
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => [c.url, c.body.direction ?? c.body.what])).toEqual([
      ["/api/ptz/move", "up"],
      ["/api/ptz/stop", "move"],
      ["/api/ptz/zoom", "out"],
      ["/api/ptz/stop", "zoom"],
    ]);
  });

  it("debounces speed sliders by 60 ms and clamps them to 1–24", async () => {
    controller.setSpeed("panTilt", 3);
    controller.setSpeed("panTilt", 30);
    await vi.advanceTimersByTimeAsync(SPEED_DEBOUNCE_MS - 10);
    expect(controller.store.get().speeds.panTilt).toBe(10);
    await vi.advanceTimersByTimeAsync(20);
    expect(controller.store.get().speeds).toEqual({ panTilt: 24, zoom: 8, focus: 8 });
  });

  it("click-to-move sends a short pulse toward the click", async () => {
    await controller.connect({ ip: "127.0.0.5", username: "u", password: "p" });
    calls = [];
    view.store.set({ lastClick: { x: 0.9, y: 0.1, at: 1 } });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toEqual([{ url: "/api/ptz/move", body: expect.objectContaining({ direction: "right", durationMs: 400 }) }]);
  });
});
