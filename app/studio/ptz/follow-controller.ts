// "Follow": where box detection and PTZ meet. While on, every box-detection result goes through the
// follower (./follow) and its speeds to the camera as one POST /api/ptz/drive; a lost subject recalls the
// chosen preset. It needs box detection running and an IP PTZ connection (a PTZ connection beside a webcam, or
// an IP camera with PTZ); without either it is off and says why. A manual joystick move takes over and turns it off.
// An IP camera the server watches with local vision is followed by the server (issue 30): switching Follow on sets the
// watch's follow with these options, and the server turns the camera from its own tracks, also with no tab open.
import { errorDetail } from "../../lib/api/errors";
import { ptzApi } from "../../lib/api/ptz";
import { PTZ_SPEED_MAX, PTZ_SPEED_MIN, type PtzTargetInput } from "../../schemas/ptz";
import { FOLLOW_LIMITS, type FollowInput, type Watch, type WatchInput } from "../../schemas/watch";
import { activeDetection, type DetectionState } from "../ai/detection-controller";
import { DEFAULT_FOLLOW_SETTINGS, Follower, type FollowCommand, type FollowPhase } from "./follow";
import type { Notifier } from "../notifier";
import type { PtzState } from "./ptz-controller";
import { loadJson, saveJson } from "../settings";
import { createStore, type Store } from "../store";

export const FOLLOW_STORAGE_KEY = "framewise.follow";

/** What the operator chooses (the rest of the follower's settings come from the PTZ speed slider). */
export interface FollowOptions {
  zoom: boolean;
  /** Fraction of the picture height the subject should fill when zoom is on. */
  targetHeight: number;
  /** Camera preset slot to go back to when the subject is gone; null: just stop. */
  returnPreset: number | null;
  lostSeconds: number;
}

export { FOLLOW_LIMITS };

export const DEFAULT_FOLLOW_OPTIONS: FollowOptions = {
  zoom: DEFAULT_FOLLOW_SETTINGS.zoom,
  targetHeight: DEFAULT_FOLLOW_SETTINGS.targetHeight,
  returnPreset: DEFAULT_FOLLOW_SETTINGS.returnPreset,
  lostSeconds: DEFAULT_FOLLOW_SETTINGS.lostSeconds,
};

export function sanitizeFollowOptions(value: unknown): FollowOptions {
  const v = (value && typeof value === "object" ? value : {}) as Partial<Record<keyof FollowOptions, unknown>>;
  const number = (x: unknown, min: number, max: number, fallback: number) => (typeof x === "number" && Number.isFinite(x) ? Math.min(max, Math.max(min, x)) : fallback);
  return {
    zoom: typeof v.zoom === "boolean" ? v.zoom : DEFAULT_FOLLOW_OPTIONS.zoom,
    targetHeight: Math.round(number(v.targetHeight, FOLLOW_LIMITS.targetHeight.min, FOLLOW_LIMITS.targetHeight.max, DEFAULT_FOLLOW_OPTIONS.targetHeight) * 100) / 100,
    returnPreset: typeof v.returnPreset === "number" && Number.isInteger(v.returnPreset) && v.returnPreset >= 0 && v.returnPreset <= 254 ? v.returnPreset : null,
    lostSeconds: Math.round(number(v.lostSeconds, FOLLOW_LIMITS.lostSeconds.min, FOLLOW_LIMITS.lostSeconds.max, DEFAULT_FOLLOW_OPTIONS.lostSeconds)),
  };
}

export interface FollowState {
  enabled: boolean;
  options: FollowOptions;
  /** "off" while not following; "server": the server follows (a watched IP camera); otherwise what the follower is doing. */
  phase: FollowPhase | "off" | "server";
}

/** What Follow reads from the studio (stores only, so tests can drive it). */
export interface FollowHost {
  detection: { store: Store<Pick<DetectionState, "box" | "point" | "results">>; detectNow(): void };
  ptz: { store: Store<Pick<PtzState, "mode" | "connection" | "held" | "speeds">> };
  notify: Notifier;
  /** The server's watches of the IP cameras (studio.watch): a watched camera is followed by the server. */
  watch?: { store: Store<{ watches: Record<string, Watch> }>; save(cameraId: string, input: WatchInput): Promise<boolean> };
  /** Sends one relay command (the PTZ API by default). */
  send?: (kind: "drive" | "preset" | "stop", connection: PtzTargetInput, body: Record<string, unknown>) => Promise<unknown>;
}

/** Why Follow cannot run now, or null when it can. */
export function followUnavailable(detection: Pick<DetectionState, "box" | "point">, ptz: Pick<PtzState, "mode" | "connection">): string | null {
  if (ptz.mode !== "ip" || !ptz.connection) return "Follow needs a PTZ camera: connect one in Settings, or select an IP camera with PTZ.";
  if (activeDetection(detection) !== "box") return "Follow needs Box Detection: turn it on with what to follow as the query.";
  return null;
}

export class FollowController {
  readonly store = createStore<FollowState>({ enabled: false, options: sanitizeFollowOptions(loadJson(FOLLOW_STORAGE_KEY)), phase: "off" });
  private readonly follower = new Follower();
  private last: FollowCommand = { pan: 0, tilt: 0, zoom: 0, recallPreset: null };
  private lastResults: DetectionState["results"] = null;
  /** One command on the wire at a time; a newer one replaces a waiting one (never a queue of stale speeds). */
  private sending = false;
  private waiting: (() => Promise<void>) | null = null;
  private readonly offs: (() => void)[] = [];
  private readonly send: NonNullable<FollowHost["send"]>;

  constructor(private readonly host: FollowHost) {
    this.send = host.send ?? ((kind, connection, body) => ptzApi.command(kind, connection, body as never));
    this.offs.push(host.detection.store.subscribe(() => this.onDetection()));
    this.offs.push(
      host.ptz.store.subscribe(() => {
        const ptz = host.ptz.store.get();
        // Another camera selected: the switch shows that camera's server follow, or the browser's (off).
        if (!this.serverWatch() && this.store.get().phase === "server") this.store.set({ enabled: false, phase: "off" });
        if (!ptz.held) this.showServerFollow();
        if (!this.store.get().enabled) return;
        // The operator grabbed the joystick: their move wins.
        if (ptz.held) return this.setEnabled(false, "Follow stopped: the camera was moved by hand.");
        if (this.serverWatch()) return;
        if (followUnavailable(host.detection.store.get(), ptz)) this.setEnabled(false);
      }),
    );
    if (host.watch) this.offs.push(host.watch.store.subscribe(() => this.showServerFollow()));
    this.showServerFollow();
  }

  /** The selected IP camera's watch when the server watches it (its follow is the server's), else null. */
  private serverWatch(): { cameraId: string; watch: Watch } | null {
    const connection = this.host.ptz.store.get().connection;
    if (!connection || !("cameraId" in connection)) return null;
    const watch = this.host.watch?.store.get().watches[connection.cameraId];
    return watch?.enabled ? { cameraId: connection.cameraId, watch } : null;
  }

  /** The switch shows the server's follow of a watched camera: on unless off or paused (by a manual move anywhere). */
  private showServerFollow(): void {
    const server = this.serverWatch();
    if (!server) return;
    const on = server.watch.follow.enabled && server.watch.follow.pausedAt === null;
    if (on !== this.store.get().enabled || (on && this.store.get().phase !== "server")) this.store.set({ enabled: on, phase: on ? "server" : "off" });
  }

  /** Sets the watched camera's follow on the server with the studio's options (the class: a person when watched for). */
  private async setServerFollow(server: { cameraId: string; watch: Watch }, on: boolean): Promise<void> {
    const { options } = this.store.get();
    const { watch } = server;
    const follow: FollowInput = {
      startZoneId: watch.follow.startZoneId,
      enabled: on,
      label: watch.labels.includes(watch.follow.label) ? watch.follow.label : watch.labels[0]!,
      zoom: options.zoom,
      targetHeight: options.targetHeight,
      returnPreset: options.returnPreset,
      lostSeconds: options.lostSeconds,
      maxSpeed: Math.max(PTZ_SPEED_MIN, Math.min(PTZ_SPEED_MAX, this.host.ptz.store.get().speeds.panTilt)),
    };
    this.store.set({ enabled: on, phase: on ? "server" : "off" });
    const saved = await this.host.watch!.save(server.cameraId, { enabled: watch.enabled, labels: watch.labels, fps: watch.fps, width: watch.width, follow });
    if (!saved) this.showServerFollow();
  }

  /** Why the switch is disabled, or null. */
  unavailable(): string | null {
    if (this.serverWatch()) return null; // the server detects: no box detection needed in the studio
    return followUnavailable(this.host.detection.store.get(), this.host.ptz.store.get());
  }

  setEnabled(on: boolean, message?: string) {
    const state = this.store.get();
    if (on === state.enabled) return;
    if (on && this.unavailable()) return;
    const server = this.serverWatch();
    if (server) {
      // A manual move paused it on the server already (the joystick's commands say so): only the switch changes here.
      if (message) {
        this.store.set({ enabled: false, phase: "off" });
        this.host.notify.toast({ title: message });
      } else void this.setServerFollow(server, on);
      return;
    }
    this.follower.reset();
    this.lastResults = this.host.detection.store.get().results;
    if (on) {
      this.store.set({ enabled: true, phase: "searching" });
      // The result on hand is from before Follow was on, up to a whole detection interval old (5 s by default),
      // so it is not followed; waiting for the loop's next round would leave the camera still for that long, and a
      // busy key may skip that round. A round now, as the person's call, gives Follow a fresh picture at once.
      this.host.detection.detectNow();
      return;
    }
    this.store.set({ enabled: false, phase: "off" });
    this.stopCamera();
    if (message) this.host.notify.toast({ title: message });
  }

  updateOptions(patch: Partial<FollowOptions>) {
    const options = sanitizeFollowOptions({ ...this.store.get().options, ...patch });
    this.store.set({ options });
    saveJson(FOLLOW_STORAGE_KEY, options);
  }

  dispose() {
    // The server's follow goes on without the studio: only the browser's stops.
    if (this.store.get().phase !== "server") this.setEnabled(false);
    this.offs.forEach((off) => off());
  }

  private onDetection() {
    const detection = this.host.detection.store.get();
    if (!this.store.get().enabled || this.serverWatch()) return;
    if (followUnavailable(detection, this.host.ptz.store.get())) return this.setEnabled(false);
    const results = detection.results;
    if (results === this.lastResults) return;
    this.lastResults = results;
    // Cleared results (a failed call, another camera, a new query) are no sighting: hold still until the next.
    if (!results || results.kind !== "box") return this.stopCamera();
    const { options } = this.store.get();
    const ptz = this.host.ptz.store.get();
    this.follower.configure({
      maxSpeed: Math.max(PTZ_SPEED_MIN, Math.min(PTZ_SPEED_MAX, ptz.speeds.panTilt)),
      zoom: options.zoom,
      targetHeight: options.targetHeight,
      returnPreset: options.returnPreset,
      lostSeconds: options.lostSeconds,
      aspect: 16 / 9,
    });
    const command = this.follower.update(results.boxes, results.frameAt);
    this.store.set({ phase: this.follower.status.phase });
    this.drive(command, options.zoom);
  }

  private drive(command: FollowCommand, zoom: boolean) {
    const still = (c: FollowCommand) => c.pan === 0 && c.tilt === 0 && c.zoom === 0;
    const previous = this.last;
    this.last = command;
    // Moving commands are re-sent every result (they keep the server's 2 s watchdog fed); a stop only once.
    if (still(command) && still(previous) && command.recallPreset === null) return;
    this.queue(async () => {
      const connection = this.host.ptz.store.get().connection;
      if (!connection) return;
      await this.send("drive", connection, { pan: command.pan, tilt: command.tilt, ...(zoom || previous.zoom !== 0 ? { zoom: command.zoom } : {}) });
      if (command.recallPreset !== null) await this.send("preset", connection, { action: "recall", number: command.recallPreset });
    });
  }

  private stopCamera() {
    const previous = this.last;
    this.last = { pan: 0, tilt: 0, zoom: 0, recallPreset: null };
    if (previous.pan === 0 && previous.tilt === 0 && previous.zoom === 0) return;
    this.queue(async () => {
      const connection = this.host.ptz.store.get().connection;
      if (connection) await this.send("stop", connection, { what: "all" });
    });
  }

  private queue(run: () => Promise<void>) {
    if (this.sending) {
      this.waiting = run;
      return;
    }
    this.sending = true;
    void run()
      .catch((error: unknown) => {
        if (!this.store.get().enabled) return;
        this.store.set({ enabled: false, phase: "off" });
        this.last = { pan: 0, tilt: 0, zoom: 0, recallPreset: null };
        this.host.notify.toast({ title: "Follow stopped", description: errorDetail(error, "The camera did not answer"), variant: "destructive" });
      })
      .finally(() => {
        this.sending = false;
        const next = this.waiting;
        this.waiting = null;
        if (next) this.queue(next);
      });
  }
}
