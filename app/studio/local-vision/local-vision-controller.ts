// Local vision in the studio: the on-device detector run on the preview at its own pace (one frame in flight),
// its boxes turned into tracks by the scene, kept with their camera. The detector loads lazily the first time
// it is switched on (with progress); no key, no calls. Framework-free behind a narrow host so a test drives it.
import type { CamerasState } from "../cameras/cameras";
import type { Store } from "../store";
import { createStore } from "../store";
import { createLocalDetector, type DetectorBackend, type LocalDetection, type LocalDetector } from "./detector";
import { BUILT_IN_DETECTOR, type DetectorChoice } from "./detector-types";
import type { Box } from "./geometry";
import type { LocalVisionEvent } from "./events";
import type { RegionInsight } from "./insights";
import type { LineCounts, LineDefinition } from "./lines";
import { createScene, type Scene } from "./scene";
import type { ZoneDefinition, ZoneOccupancy } from "./zones";
import { shown, TRACKER_MIN_SCORE, type Track } from "./tracker";
import type { ServerScene } from "./server-scene";
import { keepLatest, thumbnailKey, type Thumbnailer } from "./thumbnails";

export type LocalVisionStatus = "off" | "loading" | "running" | "failed";

/** A track as the studio draws it. */
export interface LocalTrack {
  id: number;
  label: string;
  box: Box;
  score: number;
}

export interface LocalVisionState {
  /** Local detection's boxes (the Detections tab's switch). */
  enabled: boolean;
  /** People counting's local mode: a continuous count of confirmed people, whatever classes are picked. */
  countingPeople: boolean;
  /** Confirmed "person" tracks in view now, while `countingPeople` (null before its first frame). */
  people: number | null;
  status: LocalVisionStatus;
  /** Fraction (0..1) of the model fetched while loading. */
  progress: number;
  backend: DetectorBackend | null;
  /** Frames analysed on this device since the studio opened (the AI calls panel shows what that saved). */
  frames: number;
  /** Frames the detector got through per second, smoothed; null before the second frame. */
  fps: number | null;
  /** Confirmed tracks of the chosen classes on the camera in `cameraId`. */
  tracks: LocalTrack[];
  cameraId: string | null;
  /** Classes to detect; empty means every class. */
  classes: string[];
  /** The model the detector runs (the deployment's, chosen by an administrator) and so the classes it knows. */
  model: DetectorChoice;
  /** The selected camera's lines' counts since they were set or reset, by line id (updated every frame). */
  lineCounts: Record<string, LineCounts>;
  /** Who is in each of the selected camera's zones now, by zone id (updated every frame). */
  zoneOccupancy: Record<string, ZoneOccupancy>;
  /** What each line and zone of the selected camera saw lately, by id, for its inspector (updated every frame). */
  insights: Record<string, RegionInsight>;
  /** The selected camera's scene comes from the server's pipeline (an IP camera it watches), not this device's detector. */
  fromServer: boolean;
  /** Pictures of who a line or zone counted, by `thumbnailKey` of the happening (object URLs, the latest kept). */
  thumbnails: Record<string, string>;
  error: string | null;
}

/** The lines and zones the scene counts on one camera (normalised 0–1, ids as the server gave them). */
export interface LocalRegions {
  lines: readonly LineDefinition[];
  zones: readonly ZoneDefinition[];
}

/** One frame's line and zone events, with the camera and the frame's confirmed tracks (for the event's photo). */
export interface LocalEventsFrame {
  cameraId: string;
  /** The frame's time from `host.now()` (milliseconds). */
  at: number;
  events: readonly LocalVisionEvent[];
  tracks: readonly LocalTrack[];
}
export type LocalEventsListener = (frame: LocalEventsFrame) => void;

/** Every frame's tracks of the classes the studio watches for (the heat grid's input), with the camera and time. */
export interface LocalTracksFrame {
  cameraId: string;
  /** The frame's time from `host.now()` (milliseconds). */
  at: number;
  tracks: readonly Track[];
}
export type LocalTracksListener = (frame: LocalTracksFrame) => void;

/** What local vision needs from the rest of the studio. */
export interface LocalVisionHost {
  cameras: { store: Pick<Store<Pick<CamerasState, "selectedCameraId">>, "get" | "subscribe"> };
  /** The selected camera's current picture as a bitmap (handed over to the detector), or null while there is none. */
  grabBitmap(): Promise<ImageBitmap | null>;
  /** Resolves when the preview may show a new picture (the next animation frame), so an empty preview is not polled in a tight loop. */
  nextFrame(): Promise<void>;
  now(): number;
  /** The deployment's detector model; the built-in when absent or when asking fails (signed out, offline). */
  detectorChoice?(): Promise<DetectorChoice>;
  /** Makes the inspector's thumbnails of what lines and zones count (none without it). */
  thumbnailer?: Thumbnailer;
  /** IP cameras the server watches with local vision: their scenes come from the server (none without it). */
  serverScenes?: ServerScenes;
}

/** The server's live scenes of the IP cameras it watches (issue 30). */
export interface ServerScenes {
  watched(cameraId: string): boolean;
  /** Calls `listener` when `watched` may have changed; returns its removal. */
  subscribe(listener: () => void): () => void;
  /** Follows the camera's scene (reconnecting by itself) until the returned function is called. */
  open(cameraId: string, onScene: (scene: ServerScene) => void): () => void;
}

export const DEFAULT_LOCAL_CLASSES: string[] = ["person"];
/** Weight of the newest frame interval in the smoothed frame rate. */
const FPS_SMOOTHING = 0.3;

const loadFailure = (error: unknown) => `Local detection could not start: ${error instanceof Error ? error.message : String(error)}`;

export class LocalVisionController {
  readonly store = createStore<LocalVisionState>({
    enabled: false,
    countingPeople: false,
    people: null,
    status: "off",
    progress: 0,
    backend: null,
    frames: 0,
    fps: null,
    tracks: [],
    cameraId: null,
    classes: DEFAULT_LOCAL_CLASSES,
    model: BUILT_IN_DETECTOR,
    lineCounts: {},
    zoneOccupancy: {},
    insights: {},
    thumbnails: {},
    fromServer: false,
    error: null,
  });
  private detector: LocalDetector | null = null;
  private loaded: Promise<{ backend: DetectorBackend }> | null = null;
  private readonly scene: Scene;
  /** Bumped on every start and stop: a loop or answer from an older run drops what it has. */
  private run = 0;
  private lastFrameAt: number | null = null;
  private readonly offs: Array<() => void> = [];
  private readonly eventListeners = new Set<LocalEventsListener>();
  private readonly trackListeners = new Set<LocalTracksListener>();
  /** The lines and zones the scene counts, and the camera they belong to. */
  private regions: { cameraId: string; regions: LocalRegions } | null = null;
  /** The deployment's model, asked once: the detector loads it, and the class pickers list its classes meanwhile. */
  private readonly model: Promise<DetectorChoice>;
  /** The model once known (at once when the host cannot ask), so a load need not wait a turn for it. */
  private knownModel: DetectorChoice | null = null;
  private disposed = false;

  constructor(
    private readonly host: LocalVisionHost,
    private readonly makeDetector: () => LocalDetector = () => createLocalDetector(),
    makeScene: () => Scene = () => createScene(),
  ) {
    this.scene = makeScene();
    if (!host.detectorChoice) this.knownModel = BUILT_IN_DETECTOR;
    this.model = (host.detectorChoice?.() ?? Promise.resolve(BUILT_IN_DETECTOR))
      .catch(() => BUILT_IN_DETECTOR)
      .then((model) => {
        this.knownModel = model;
        this.store.set((s) => ({ model, classes: s.classes.filter((label) => model.labels.includes(label)) }));
        return model;
      });
    let cameraId = host.cameras.store.get().selectedCameraId;
    this.offs.push(
      host.cameras.store.subscribe(() => {
        const next = host.cameras.store.get().selectedCameraId;
        if (next === cameraId) return;
        cameraId = next;
        // Tracks belong to a picture: a new camera starts a new scene.
        this.scene.tracker.reset();
        this.applyRegions();
        this.lastFrameAt = null;
        this.store.set((s) => ({ tracks: [], cameraId: null, fps: null, people: s.countingPeople ? 0 : null }));
      }),
    );
  }

  /**
   * The lines and zones of `cameraId` to count on. They apply while that camera is selected; a line or zone that
   * keeps its id and points keeps its counts and what it knows of each track (see lines.ts, zones.ts).
   */
  setRegions(cameraId: string, regions: LocalRegions): void {
    this.regions = { cameraId, regions };
    this.applyRegions();
  }

  /** Called with every frame that produced line or zone events; returns the unsubscribe. */
  onEvents(listener: LocalEventsListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Called with every frame's tracks of the watched classes (boxes on: the picked ones; people count on: people); returns the unsubscribe. */
  onTracks(listener: LocalTracksListener): () => void {
    this.trackListeners.add(listener);
    return () => this.trackListeners.delete(listener);
  }

  private applyRegions(): void {
    const selected = this.host.cameras.store.get().selectedCameraId;
    const regions = this.regions && this.regions.cameraId === selected ? this.regions.regions : { lines: [], zones: [] };
    this.scene.lines.setLines(regions.lines);
    this.scene.zones.setZones(regions.zones);
    this.publishRegionCounts();
  }

  /** Zero one line's live counts (the server's counts are reset by the caller). */
  resetLine(lineId: string): void {
    this.scene.lines.reset(lineId);
    this.publishRegionCounts();
  }

  private publishRegionCounts(): void {
    this.store.set({ lineCounts: this.scene.lines.counts(), zoneOccupancy: this.scene.zones.occupancy(), insights: this.regionInsights() });
  }

  private regionInsights(): Record<string, RegionInsight> {
    return { ...this.scene.lines.insights(), ...this.scene.zones.insights() };
  }

  /**
   * Which classes the scene must see besides the picked ones: every class a line or zone of the selected camera
   * watches ("all" when one watches every class, null when there are none).
   */
  private regionClasses(): ReadonlySet<string> | "all" | null {
    const selected = this.host.cameras.store.get().selectedCameraId;
    if (!this.regions || this.regions.cameraId !== selected) return null;
    const { lines, zones } = this.regions.regions;
    if (lines.length === 0 && zones.length === 0) return null;
    const labels = new Set<string>();
    for (const region of [...lines, ...zones]) {
      if (!region.labels || region.labels.length === 0) return "all";
      region.labels.forEach((label) => labels.add(label));
    }
    return labels;
  }

  isOn(): boolean {
    return this.store.get().enabled;
  }

  isCountingPeople(): boolean {
    return this.store.get().countingPeople;
  }

  /** Local detection's boxes on or off; the detector runs while these or the people count are on. */
  setEnabled(on: boolean): void {
    if (on === this.isOn()) return;
    this.switchTo({ enabled: on, countingPeople: this.isCountingPeople() });
  }

  /** People counting's local mode on or off (no calls; sampling it into a session is the counting controller's). */
  setCountingPeople(on: boolean): void {
    if (on === this.isCountingPeople()) return;
    this.switchTo({ enabled: this.isOn(), countingPeople: on });
  }

  private switchTo(next: { enabled: boolean; countingPeople: boolean }): void {
    const wasRunning = this.isOn() || this.isCountingPeople();
    const running = next.enabled || next.countingPeople;
    this.store.set({ ...next, tracks: next.enabled ? this.store.get().tracks : [], people: next.countingPeople ? this.store.get().people : null });
    if (running === wasRunning) return;
    this.run += 1;
    if (!running) {
      this.scene.tracker.reset();
      // Nobody is known to be in a zone once nothing watches: occupancy starts afresh (lines keep their counts).
      this.scene.zones.setZones([]);
      this.applyRegions();
      this.lastFrameAt = null;
      this.store.set({ status: "off", tracks: [], cameraId: null, fps: null });
      return;
    }
    this.store.set({ status: this.loaded ? this.store.get().status : "loading", error: null });
    void this.start(this.run);
  }

  private stopFailed(error: unknown, extra: Partial<LocalVisionState> = {}): void {
    this.run += 1;
    this.store.set({ enabled: false, countingPeople: false, people: null, tracks: [], status: "failed", error: loadFailure(error), ...extra });
  }

  /** The classes to detect, in the model's order (names it does not know dropped; empty means every class). */
  setClasses(classes: readonly string[]): void {
    const picked = this.store.get().model.labels.filter((label) => classes.includes(label));
    this.store.set((s) => ({ classes: picked, tracks: s.tracks.filter((t) => wanted(picked, t.label)) }));
  }

  dispose(): void {
    this.disposed = true;
    this.run += 1;
    this.offs.forEach((off) => off());
    this.eventListeners.clear();
    this.trackListeners.clear();
    this.detector?.dispose();
    this.detector = null;
    this.loaded = null;
    for (const url of Object.values(this.store.get().thumbnails)) this.host.thumbnailer?.revoke(url);
  }

  private load(): Promise<{ backend: DetectorBackend }> {
    if (!this.loaded) {
      const detector = (this.detector = this.makeDetector());
      const load = (model: DetectorChoice) => detector.load((progress) => this.store.set({ progress }), { model });
      this.loaded = this.knownModel ? load(this.knownModel) : this.model.then(load);
    }
    return this.loaded;
  }

  private async start(run: number): Promise<void> {
    // A camera the server watches needs no detector here: it loads once another camera is selected.
    while (this.serverWatched()) {
      await this.followServer(run);
      if (run !== this.run) return;
    }
    let backend: DetectorBackend;
    try {
      ({ backend } = await this.load());
    } catch (error) {
      // A failed load is not kept: switching on again tries again with a fresh worker.
      this.detector?.dispose();
      this.detector = null;
      this.loaded = null;
      if (run !== this.run) return;
      return this.stopFailed(error, { progress: 0 });
    }
    if (run !== this.run) return;
    this.store.set({ status: "running", backend, progress: 1 });
    await this.loop(run);
  }

  private async loop(run: number): Promise<void> {
    while (run === this.run && this.detector) {
      if (this.serverWatched()) {
        await this.followServer(run);
        continue;
      }
      const cameraId = this.host.cameras.store.get().selectedCameraId;
      const frame = await this.host.grabBitmap().catch(() => null);
      if (run !== this.run) return frame?.close();
      if (!frame) {
        await this.host.nextFrame();
        continue;
      }
      // Lines and zones get thumbnails of what they count: a copy of the frame waits for its events.
      const thumbnailer = this.host.thumbnailer;
      const copy = thumbnailer && this.regionClasses() !== null ? await thumbnailer.copy(frame).catch(() => null) : null;
      let detections: LocalDetection[];
      try {
        // Down to the tracker's weak boxes: they only keep tracks alive (a person standing still scores low), and a
        // box is drawn only for a confirmed track, which only confident boxes start.
        detections = await this.detector.detect(frame, { minScore: TRACKER_MIN_SCORE });
      } catch (error) {
        copy?.close();
        if (run !== this.run) return;
        return this.stopFailed(error);
      }
      // A camera switch while the frame was out makes its boxes belong to another picture.
      if (run !== this.run || this.host.cameras.store.get().selectedCameraId !== cameraId) {
        copy?.close();
        if (run !== this.run) return;
        continue;
      }
      const events = this.frame(detections, cameraId);
      if (copy && thumbnailer && events.length > 0) void this.thumbnails(thumbnailer, copy, events);
      else copy?.close();
    }
  }

  /** Crops each event's box from its frame (then closed) into the inspector's thumbnails, forgetting the oldest. */
  private async thumbnails(thumbnailer: Thumbnailer, frame: ImageBitmap, events: readonly LocalVisionEvent[]): Promise<void> {
    const made: Record<string, string> = {};
    try {
      for (const event of events) {
        const regionId = event.type === "line.crossed" ? event.lineId : event.zoneId;
        made[thumbnailKey(regionId, event.at, event.trackId)] = await thumbnailer.crop(frame, event.box);
      }
    } catch {
      // A thumbnail is a nicety: the count and the event stand without it.
    } finally {
      frame.close();
    }
    if (this.disposed) return Object.values(made).forEach((url) => thumbnailer.revoke(url));
    this.store.set({ thumbnails: keepLatest(this.store.get().thumbnails, made, thumbnailer) });
  }

  private frame(detections: readonly LocalDetection[], cameraId: string | null): readonly LocalVisionEvent[] {
    const at = this.host.now();
    const { classes, enabled, countingPeople } = this.store.get();
    // The people count tracks people, and lines and zones the classes they watch, even when the picker leaves them
    // out; the boxes show only picked classes.
    const regions = this.regionClasses();
    const tracked = (label: string) =>
      (enabled && wanted(classes, label)) || (countingPeople && label === "person") || regions === "all" || (regions !== null && regions.has(label));
    const picked = detections.filter((d) => tracked(d.label)).map((d) => ({ box: d.box, score: d.score, label: d.label }));
    const { tracks, events } = this.scene.step(picked, at);
    const fps = this.nextFps(at);
    const visible = tracks.filter(shown);
    if (events.length > 0 && cameraId) {
      const frame: LocalEventsFrame = { cameraId, at, events, tracks: visible.map(toLocalTrack) };
      for (const listener of this.eventListeners) listener(frame);
    }
    if (cameraId && this.trackListeners.size > 0) {
      const watched = tracks.filter((t) => (enabled && wanted(classes, t.label)) || (countingPeople && t.label === "person"));
      for (const listener of this.trackListeners) listener({ cameraId, at, tracks: watched });
    }
    this.store.set({
      frames: this.store.get().frames + 1,
      tracks: enabled ? visible.filter((t) => wanted(classes, t.label)).map(toLocalTrack) : [],
      people: countingPeople ? visible.filter((t) => t.label === "person").length : null,
      cameraId,
      fps,
      lineCounts: this.scene.lines.counts(),
      zoneOccupancy: this.scene.zones.occupancy(),
      insights: this.regionInsights(),
    });
    return events;
  }

  /** Whether the selected camera is one the server watches (its scene then comes from the server). */
  private serverWatched(): boolean {
    const cameraId = this.host.cameras.store.get().selectedCameraId;
    const watched = cameraId !== null && (this.host.serverScenes?.watched(cameraId) ?? false);
    if (!watched && this.store.get().fromServer) this.store.set({ fromServer: false, tracks: [], cameraId: null, fps: null });
    return watched;
  }

  /** The selected camera's scene from the server, no detector run here, until the selection, the watch or this run changes. */
  private async followServer(run: number): Promise<void> {
    const server = this.host.serverScenes!;
    const cameraId = this.host.cameras.store.get().selectedCameraId!;
    this.scene.tracker.reset();
    this.lastFrameAt = null;
    this.store.set({ status: "running", progress: 1, fromServer: true, tracks: [], cameraId: null, fps: null });
    await new Promise<void>((resolve) => {
      const close = server.open(cameraId, (scene) => this.fromServer(scene, cameraId));
      const check = () => {
        if (run === this.run && this.host.cameras.store.get().selectedCameraId === cameraId && server.watched(cameraId)) return;
        close();
        offs.forEach((off) => off());
        resolve();
      };
      const offs = [this.host.cameras.store.subscribe(check), server.subscribe(check), this.store.subscribe(check)];
    });
  }

  /** The server's scene as this device's would be shown: the picked classes' tracks, the people count, lines and zones. */
  private fromServer(scene: ServerScene, cameraId: string): void {
    const { classes, enabled, countingPeople } = this.store.get();
    this.store.set({
      tracks: enabled ? scene.tracks.filter((t) => wanted(classes, t.label)) : [],
      people: countingPeople ? scene.tracks.filter((t) => t.label === "person").length : null,
      cameraId,
      fps: this.nextFps(this.host.now()),
      lineCounts: scene.lineCounts,
      zoneOccupancy: scene.zoneOccupancy,
      insights: {},
    });
  }

  private nextFps(at: number): number | null {
    const previous = this.lastFrameAt;
    this.lastFrameAt = at;
    if (previous === null || at <= previous) return this.store.get().fps;
    const rate = 1000 / (at - previous);
    const before = this.store.get().fps;
    return before === null ? rate : before + FPS_SMOOTHING * (rate - before);
  }
}

function wanted(classes: readonly string[], label: string): boolean {
  return classes.length === 0 || classes.includes(label);
}

function toLocalTrack(track: Track): LocalTrack {
  return { id: track.id, label: track.label, box: track.box, score: track.score };
}
