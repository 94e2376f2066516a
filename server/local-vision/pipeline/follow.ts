// PTZ follow on the server (issue 30): a watched PTZ IP camera turns after a tracked subject of one class, from its
// own pipeline's scenes (camera-pipeline.ts), at the detector's rate, with no browser open. The subject is a track of
// the chosen class, kept by its id while it lives (with a start zone, only a track inside that zone starts it); its box
// goes through the studio's pure Follower (app/studio/ptz/follow.ts, one code) and the speeds to the camera. A lost
// subject stops the camera and recalls the return preset. One command on the wire per camera: a newer one replaces
// a waiting one, never a queue of stale speeds.
import type { Logger } from "pino";
import type { FollowSettingRow } from "#db/schema";
import { Follower, pickSubject, type FollowCommand, type FollowPhase, type FollowSettings } from "#app/studio/ptz/follow";
import type { LiveScene } from "./camera-pipeline";

/** The camera as the follow drives it (server/ptz/service.ts's PtzService with the camera's connection). */
export interface FollowCamera {
  drive(pan: number, tilt: number, zoom?: number): Promise<void>;
  stop(): Promise<void>;
  recallPreset(number: number): Promise<void>;
}

type SceneTrack = LiveScene["tracks"][number];

/**
 * The track to follow in this scene: the one followed so far while it lives; else, of the chosen class (inside the
 * start zone when there is one), the nearest to where the subject was last seen (the centre before any).
 */
export function pickFollowTrack(
  scene: Pick<LiveScene, "tracks" | "zoneOccupancy">,
  setting: Pick<FollowSettingRow, "label" | "startZoneId">,
  current: { trackId: number | null; last: { x: number; y: number } | null },
): SceneTrack | null {
  const ofClass = scene.tracks.filter((track) => track.label === setting.label);
  const kept = ofClass.find((track) => track.id === current.trackId);
  if (kept) return kept;
  const inZone = setting.startZoneId ? new Set(scene.zoneOccupancy[setting.startZoneId]?.occupants.map((o) => o.trackId) ?? []) : null;
  const candidates = inZone ? ofClass.filter((track) => inZone.has(track.id)) : ofClass;
  const box = pickSubject(
    candidates.map((track) => track.box),
    current.last,
  );
  return candidates.find((track) => track.box === box) ?? null;
}

/** The studio's follower settings from the stored follow (the server's pictures are 16:9 like the studio's). */
export const followerSettings = (setting: FollowSettingRow): FollowSettings => ({
  maxSpeed: setting.maxSpeed,
  zoom: setting.zoom,
  targetHeight: setting.targetHeight,
  returnPreset: setting.returnPreset,
  lostSeconds: setting.lostSeconds,
  aspect: 16 / 9,
});

/** A command to send: zoom undefined leaves the lens alone. */
type Pending = Omit<FollowCommand, "zoom"> & { zoom: number | undefined; drive: boolean };

const STILL: FollowCommand = { pan: 0, tilt: 0, zoom: 0, recallPreset: null };
const still = (c: FollowCommand) => c.pan === 0 && c.tilt === 0 && c.zoom === 0;

export class ServerFollow {
  private readonly follower: Follower;
  private trackId: number | null = null;
  /** Where the subject was last seen (frame fractions): a new subject is looked for from there. */
  private lastPosition: { x: number; y: number } | null = null;
  /** Whether the first subject has been found: with a start zone, only one inside the zone starts it. */
  private started = false;
  private last: FollowCommand = STILL;
  private sending = false;
  /** The command on the wire, awaited before the final stop. */
  private inFlight: Promise<void> = Promise.resolve();
  private waiting: Pending | null = null;
  private ended = false;
  /** Commands sent, for the logs and tests. */
  sent = 0;

  constructor(
    private setting: FollowSettingRow,
    private readonly camera: FollowCamera,
    private readonly log: Logger,
  ) {
    this.follower = new Follower(followerSettings(setting));
  }

  get phase(): FollowPhase {
    return this.follower.status.phase;
  }

  /** The stored setting changed (a new class or zone starts a fresh search). */
  configure(setting: FollowSettingRow): void {
    if (setting.label !== this.setting.label || setting.startZoneId !== this.setting.startZoneId) {
      this.trackId = null;
      this.started = false;
    }
    this.setting = setting;
    this.follower.configure(followerSettings(setting));
  }

  /** One scene of the camera's pipeline: the subject's box to the follower, its command to the camera. */
  onScene(scene: LiveScene): void {
    if (this.ended) return;
    const zone = this.started ? null : this.setting.startZoneId;
    const track = pickFollowTrack(scene, { label: this.setting.label, startZoneId: zone }, { trackId: this.trackId, last: this.lastPosition });
    if (track) {
      this.started = true;
      this.trackId = track.id;
      this.lastPosition = { x: (track.box.x_min + track.box.x_max) / 2, y: (track.box.y_min + track.box.y_max) / 2 };
    } else {
      this.trackId = null;
    }
    const command = this.follower.update(track ? [track.box] : [], scene.at);
    if (command.recallPreset !== null || this.follower.status.phase === "lost") {
      // Lost: back to waiting for a subject (in the start zone when there is one).
      this.started = false;
      this.lastPosition = null;
    }
    this.drive(command);
  }

  /**
   * Stops following. `stopCamera`: switched off, so a moving camera is stopped; a manual move took over, so the
   * camera is the person's and is left alone.
   */
  async end(stopCamera: boolean): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.waiting = null;
    await this.inFlight;
    if (stopCamera && !still(this.last)) {
      this.last = STILL;
      await this.camera.stop().catch((error: unknown) => this.log.warn({ err: error }, "could not stop the camera at the end of its follow"));
    }
  }

  private drive(command: FollowCommand): void {
    const previous = this.last;
    this.last = command;
    // Moving commands are sent every scene (they keep the PTZ watchdog fed); a stop only once.
    if (still(command) && still(previous) && command.recallPreset === null) return;
    // Zoom is driven only when chosen (or to stop a zoom the last command started).
    const send: Pending = {
      ...command,
      zoom: this.setting.zoom || previous.zoom !== 0 ? command.zoom : undefined,
      // A recall after the camera was stopped already needs no second stop.
      drive: !(still(command) && still(previous)),
    };
    if (this.sending) {
      // One command on the wire: this one waits, replacing an older waiting one (keeping its stop and preset recall).
      const older = this.waiting;
      this.waiting = { ...send, drive: send.drive || (older?.drive ?? false), recallPreset: send.recallPreset ?? older?.recallPreset ?? null };
      return;
    }
    this.send(send);
  }

  private send(command: Pending): void {
    this.sending = true;
    this.inFlight = (async () => {
      if (command.drive) {
        await this.camera.drive(command.pan, command.tilt, command.zoom); // 0, 0 stops pan and tilt
        this.sent++;
      }
      if (command.recallPreset !== null) {
        await this.camera.recallPreset(command.recallPreset);
        this.sent++;
      }
    })()
      // A camera that did not answer: the next scene sends again (a stop is sent once, so it is forgotten here).
      .catch((error: unknown) => {
        this.last = STILL;
        this.log.warn({ err: error }, "the followed camera did not take a command");
      })
      .finally(() => {
        this.sending = false;
        const next = this.waiting;
        this.waiting = null;
        if (next && !this.ended) this.send(next);
      });
  }
}
