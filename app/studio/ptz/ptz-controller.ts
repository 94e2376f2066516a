// PTZ control in the browser: the connection (IP through the server relay, or the USB webcam's own pan/tilt/
// zoom), press-and-hold moves that always end (release, key-up, blur, hidden page, page hide; the held move is
// repeated every second so the server's 2 s watchdog stops the camera if this page goes away), speed sliders,
// click-to-move, camera presets and manual exposure. Selecting an IP camera with PTZ binds all of it to that
// camera ({cameraId}: the server uses its stored address and credentials). One controller per studio (made by `createStudio`).
import { errorDetail } from "../../lib/api/errors";
import { presetsApi, ptzApi, type PtzCommand, type PtzCommandBody } from "../../lib/api/ptz";
import type { Preset } from "../../schemas/cameras";
import { RESERVED_PRESET_NUMBERS } from "../../schemas/cameras";
import { type ExposureSetting, PTZ_DEFAULT_SPEEDS, PTZ_SPEED_MAX, PTZ_SPEED_MIN, type PtzCameraInfo, type PtzConnectionInput, type PtzDirection } from "../../schemas/ptz";
import type { CameraRoster } from "../cameras/cameras";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import type { StudioView } from "../view";

export type PtzMode = "ip" | "usb";
export type SpeedKind = keyof typeof PTZ_DEFAULT_SPEEDS;
export type HeldAction = { kind: "move"; direction: Exclude<PtzDirection, "home"> } | { kind: "zoom"; direction: "in" | "out" } | { kind: "focus"; direction: "near" | "far" };

/**
 * A connection made in the PTZ form (a PTZ camera whose video is a webcam), or the selected IP camera's own
 * ({cameraId}: the server uses its stored address, protocol and credentials). Either is a command's `connection`.
 */
export type PtzTarget = (PtzConnectionInput & { protocol: PtzCameraInfo["protocol"]; port: number }) | { cameraId: string };

export interface PtzState {
  mode: PtzMode;
  connection: PtzTarget | null;
  model: string | null;
  connecting: boolean;
  speeds: Record<SpeedKind, number>;
  held: HeldAction | null;
  presets: Preset[];
}

/** How often a held move is repeated: well inside the server's 2 s watchdog. */
export const HEARTBEAT_MS = 1000;
export const SPEED_DEBOUNCE_MS = 60;
/** A click-to-move pulse: long enough to see, short enough to correct with a second click. */
const CLICK_PULSE_MS = 400;

const VECTORS: Record<Exclude<PtzDirection, "home">, [number, number]> = {
  up: [0, 1],
  down: [0, -1],
  left: [-1, 0],
  right: [1, 0],
  "up-left": [-1, 1],
  "up-right": [1, 1],
  "down-left": [-1, -1],
  "down-right": [1, -1],
};

/** The compass direction nearest to a point relative to the picture centre (y grows downwards). */
export function directionToward(x: number, y: number): Exclude<PtzDirection, "home"> {
  const angle = Math.atan2(-y, x); // up is positive
  const sector = Math.round(angle / (Math.PI / 4));
  const names = ["right", "up-right", "up", "up-left", "left", "down-left", "down", "down-right"] as const;
  return names[(sector + 8) % 8]!;
}

/** The first camera preset slot not in use and not reserved by PTZOptics (90–99, 150, 151). */
export function freePresetNumber(used: number[]): number | null {
  for (let n = 1; n <= 254; n++) if (!used.includes(n) && !RESERVED_PRESET_NUMBERS.includes(n)) return n;
  return null;
}

export type CapabilityRange = { min: number; max: number; step?: number };

/** A webcam control value onto the capability's grid: within min…max, in steps of its step (or 1). */
export function clampToCapability(value: number, range: CapabilityRange): number {
  const step = range.step && range.step > 0 ? range.step : 1;
  const snapped = range.min + Math.round((value - range.min) / step) * step;
  return Math.min(range.max, Math.max(range.min, Number(snapped.toFixed(6))));
}

/** What PTZ reads from the rest of the studio: the selected camera (presets, USB track) and preview clicks. */
export interface PtzHost {
  cameras: Pick<CameraRoster, "store">;
  view: Pick<StudioView, "store">;
}

export class PtzController {
  readonly store = createStore<PtzState>({
    mode: "ip",
    connection: null,
    model: null,
    connecting: false,
    speeds: { ...PTZ_DEFAULT_SPEEDS },
    held: null,
    presets: [],
  });
  private heartbeat?: ReturnType<typeof setInterval>;
  private speedTimers: Partial<Record<SpeedKind, ReturnType<typeof setTimeout>>> = {};
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly host: PtzHost,
    private readonly notify: Notifier,
  ) {
    if (typeof window !== "undefined") {
      const stop = () => this.release();
      const hidden = () => document.visibilityState === "hidden" && this.release();
      window.addEventListener("blur", stop);
      window.addEventListener("pagehide", stop);
      document.addEventListener("visibilitychange", hidden);
      this.offs.push(() => {
        window.removeEventListener("blur", stop);
        window.removeEventListener("pagehide", stop);
        document.removeEventListener("visibilitychange", hidden);
      });
    }
    // Click-to-move: each new click on the preview moves the camera toward that point.
    const { cameras, view } = host;
    let lastAt = view.store.get().lastClick?.at ?? 0;
    this.offs.push(
      view.store.subscribe(() => {
        const click = view.store.get().lastClick;
        if (click && click.at !== lastAt) {
          lastAt = click.at;
          void this.clickToMove(click.x, click.y);
        }
      }),
    );
    let cameraId = cameras.store.get().selectedCameraId;
    this.offs.push(
      cameras.store.subscribe(() => {
        this.bindSelectedCamera();
        const next = cameras.store.get().selectedCameraId;
        if (next !== cameraId) {
          cameraId = next;
          void this.loadPresets();
        }
      }),
    );
  }

  /** A form connection set aside while an IP camera with its own PTZ is selected; back when another camera is. */
  private formConnection: { connection: PtzTarget; model: string | null } | null = null;

  /** Binds the controls to the selected IP camera when it has PTZ; unbinds (restoring the form's connection) otherwise. */
  private bindSelectedCamera() {
    const { cameras, selectedCameraId } = this.host.cameras.store.get();
    const camera = cameras.find((c) => c.id === selectedCameraId);
    const current = this.store.get().connection;
    const bound = current && "cameraId" in current ? current : null;
    if (camera?.source === "ip" && camera.ip?.ptzProtocol) {
      if (bound?.cameraId === camera.id) return;
      this.release();
      if (current && !bound) this.formConnection = { connection: current, model: this.store.get().model };
      this.store.set({ mode: "ip", connection: { cameraId: camera.id }, model: null });
    } else if (bound) {
      this.release();
      this.store.set({ connection: this.formConnection?.connection ?? null, model: this.formConnection?.model ?? null });
      this.formConnection = null;
    }
  }

  dispose() {
    this.release();
    this.offs.forEach((off) => off());
  }

  setMode(mode: PtzMode) {
    this.release();
    this.store.set({ mode });
  }

  async connect(form: { ip: string; username: string; password: string; port?: string }) {
    const ip = form.ip.trim();
    if (!ip) return this.notify.alert("Please enter an IP address", "PTZ connection");
    const port = Number(form.port?.trim() || "");
    const connection = { ip, username: form.username.trim() || "admin", password: form.password || "admin", ...(Number.isInteger(port) && port > 0 ? { port } : {}) };
    this.store.set({ connecting: true });
    try {
      const info = await ptzApi.connect(connection);
      this.store.set({ connection: { ...connection, protocol: info.protocol, port: info.port }, model: info.model });
      void this.loadPresets();
    } catch (error) {
      this.notify.toast({ title: "Could not connect to the camera", description: errorDetail(error, "The camera did not answer"), variant: "destructive" });
    } finally {
      this.store.set({ connecting: false });
    }
  }

  disconnect() {
    this.release();
    this.formConnection = null;
    this.store.set({ connection: null, model: null });
  }

  /** Starts a held move, zoom or focus; it lasts until release(). */
  press(action: HeldAction) {
    const current = this.store.get().held;
    if (current && current.kind === action.kind && current.direction === action.direction) return;
    if (current) this.release();
    if (this.store.get().mode === "usb") {
      this.store.set({ held: action });
      this.usbStep(action);
      this.heartbeat = setInterval(() => this.usbStep(action), 100);
      return;
    }
    if (!this.store.get().connection) return console.warn("PTZ command skipped: no PTZ connection");
    this.store.set({ held: action });
    const send = () => void this.command(action.kind, { direction: action.direction, speed: this.speedFor(action.kind) } as PtzCommandBody<typeof action.kind>);
    send();
    this.heartbeat = setInterval(send, HEARTBEAT_MS);
  }

  /** Ends whatever is held (button up, key up, lost focus, hidden page). */
  release() {
    const held = this.store.get().held;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!held) return;
    this.store.set({ held: null });
    if (this.store.get().mode === "usb" || !this.store.get().connection) return;
    void this.command("stop", { what: held.kind }, true);
  }

  home() {
    if (this.store.get().mode === "usb") return this.usbHome();
    if (!this.store.get().connection) return console.warn("PTZ command skipped: no PTZ connection");
    void this.command("move", { direction: "home", speed: this.speedFor("move") });
  }

  async clickToMove(x: number, y: number) {
    const distance = Math.min(1, Math.hypot(x, y));
    if (distance < 0.05) return; // already centred
    const direction = directionToward(x, y);
    if (this.store.get().mode === "usb") return this.usbStep({ kind: "move", direction });
    if (!this.store.get().connection) return;
    const speed = Math.max(PTZ_SPEED_MIN, Math.round(this.store.get().speeds.panTilt * (0.5 + distance)));
    await this.command("move", { direction, speed: Math.min(PTZ_SPEED_MAX, speed), durationMs: CLICK_PULSE_MS });
  }

  /** Speed sliders settle for 60 ms before the value is used, so dragging does not flood anything. */
  setSpeed(kind: SpeedKind, value: number) {
    clearTimeout(this.speedTimers[kind]);
    this.speedTimers[kind] = setTimeout(() => {
      const clamped = Math.max(PTZ_SPEED_MIN, Math.min(PTZ_SPEED_MAX, Math.round(value)));
      this.store.set((s) => ({ speeds: { ...s.speeds, [kind]: clamped } }));
    }, SPEED_DEBOUNCE_MS);
  }

  async exposure(setting: ExposureSetting, value: number | "auto" | "manual") {
    if (!this.store.get().connection) return console.warn("Exposure command skipped: no PTZ connection");
    await this.command("exposure", { setting, value });
  }

  async loadPresets() {
    const cameraId = this.host.cameras.store.get().selectedCameraId;
    if (!cameraId) return this.store.set({ presets: [] });
    try {
      this.store.set({ presets: await presetsApi.list(cameraId) });
    } catch (error) {
      console.warn("Could not load presets", error);
    }
  }

  async savePreset(name: string) {
    const cameraId = this.host.cameras.store.get().selectedCameraId;
    const label = name.trim();
    if (!this.store.get().connection) return this.notify.toast({ title: "Connect a PTZ camera first", variant: "destructive" });
    if (!cameraId) return this.notify.toast({ title: "Select a camera to keep presets for", variant: "destructive" });
    if (!label) return this.notify.toast({ title: "Name the preset", variant: "destructive" });
    const number = freePresetNumber(this.store.get().presets.map((p) => p.number ?? -1));
    if (number === null) return this.notify.toast({ title: "No free preset slots on this camera", variant: "destructive" });
    if (!(await this.command("preset", { action: "save", number, name: label }))) return;
    try {
      await presetsApi.create({ cameraId, name: label, number });
      this.notify.toast({ title: `Preset "${label}" saved` });
    } catch (error) {
      this.notify.toast({ title: "Could not save the preset", description: errorDetail(error, "Try again"), variant: "destructive" });
    }
    await this.loadPresets();
  }

  async recallPreset(preset: Preset) {
    if (preset.number === null) return;
    if (!this.store.get().connection) return console.warn("PTZ command skipped: no PTZ connection");
    await this.command("preset", { action: "recall", number: preset.number });
  }

  async deletePreset(preset: Preset) {
    if (preset.number !== null && this.store.get().connection) await this.command("preset", { action: "delete", number: preset.number });
    try {
      await presetsApi.remove(preset.id);
    } catch (error) {
      this.notify.toast({ title: "Could not delete the preset", description: errorDetail(error, "Try again"), variant: "destructive" });
    }
    await this.loadPresets();
  }

  /** The selected camera's live video track (USB controls and USB PTZ). */
  webcamTrack(): MediaStreamTrack | null {
    const state = this.host.cameras.store.get();
    const id = state.selectedCameraId;
    return (id && state.sources[id]?.stream?.getVideoTracks()[0]) || null;
  }

  private speedFor(kind: HeldAction["kind"]): number {
    const speeds = this.store.get().speeds;
    return kind === "move" ? speeds.panTilt : speeds[kind];
  }

  /** One relay call; failures are shown as a toast (stop calls survive page unload with keepalive). */
  private async command<K extends PtzCommand>(kind: K, body: PtzCommandBody<K>, keepalive = false): Promise<boolean> {
    const connection = this.store.get().connection;
    if (!connection) return false;
    try {
      await ptzApi.command(kind, connection, body, { keepalive });
      return true;
    } catch (error) {
      this.notify.toast({ title: "Camera command failed", description: errorDetail(error, "The camera did not answer"), variant: "destructive" });
      if (kind !== "stop") this.release();
      return false;
    }
  }

  /** USB PTZ moves in steps of the track's reported pan/tilt/zoom capabilities, scaled by speed. */
  private usbStep(action: HeldAction) {
    const track = this.webcamTrack();
    if (!track || typeof track.getCapabilities !== "function") return;
    const caps = track.getCapabilities() as Record<string, { min: number; max: number; step?: number } | undefined>;
    const settings = track.getSettings() as Record<string, number | undefined>;
    const constraints: Record<string, number> = {};
    const nudge = (name: string, sign: number, speed: number) => {
      const cap = caps[name];
      if (!cap || sign === 0) return;
      const step = Math.max(cap.step || 1, ((cap.max - cap.min) / 48) * (speed / 8));
      constraints[name] = Math.max(cap.min, Math.min(cap.max, (settings[name] ?? 0) + sign * step));
    };
    if (action.kind === "move") {
      const [x, y] = VECTORS[action.direction];
      nudge("pan", x, this.store.get().speeds.panTilt);
      nudge("tilt", y, this.store.get().speeds.panTilt);
    } else if (action.kind === "zoom") {
      nudge("zoom", action.direction === "in" ? 1 : -1, this.store.get().speeds.zoom);
    }
    if (Object.keys(constraints).length)
      void track.applyConstraints({ advanced: [constraints as MediaTrackConstraintSet] }).catch((error: unknown) => console.warn("USB PTZ failed", error));
  }

  private usbHome() {
    const track = this.webcamTrack();
    if (!track || typeof track.getCapabilities !== "function") return;
    const caps = track.getCapabilities() as Record<string, { min: number; max: number } | undefined>;
    const constraints: Record<string, number> = {};
    for (const name of ["pan", "tilt"]) if (caps[name]) constraints[name] = Math.max(caps[name].min, Math.min(caps[name].max, 0));
    if (caps.zoom) constraints.zoom = caps.zoom.min;
    if (Object.keys(constraints).length)
      void track.applyConstraints({ advanced: [constraints as MediaTrackConstraintSet] }).catch((error: unknown) => console.warn("USB PTZ failed", error));
  }
}
