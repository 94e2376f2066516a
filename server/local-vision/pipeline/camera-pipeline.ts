// One IP camera's always-on local vision on the server (issue 30): its decoded frames (frame-source.ts), motion first
// (motion.ts: a still, empty scene costs decoding and motion only), the deployment's detector on the shared pool
// (server/local-detector/pool/), then the studio's own scene engine (tracker, lines, zones: app/studio/local-vision/,
// one code) and the events it finds recorded as the studio's are (counted per minute, webhooks, alerts). It runs in
// the one process that holds the camera's pipeline lock (supervisor.ts).
import type { Logger } from "pino";
import type { DB } from "#db/index";
import type { PipelineStats } from "#app/schemas/watch";
import type { Line, VisionEvent, Zone } from "#app/schemas/local-vision";
import { toPosted, type LocalVisionEvent } from "#app/studio/local-vision/events";
import { toLineDefinition, toZoneDefinition } from "#app/studio/local-vision/region-definitions";
import { createScene } from "#app/studio/local-vision/scene";
import type { ServerScene as LiveScene } from "#app/studio/local-vision/server-scene";
import { shown, TRACKER_MIN_SCORE, type Track } from "#app/studio/local-vision/tracker";
import type { CameraSource } from "../../cameras/source";
import type { LiveStreams } from "../../cameras/stream/live-streams";
import { createLocalMonitors } from "../../monitors/local";
import { listLines, listZones, saveEvents } from "../service";
import { markWatchEvent } from "../queries";
import { recordHeat } from "../heat";
import type { BlobStore } from "../../storage/blob-store";
import type { Vision } from "../../vision/service";
import { createEventActions, type EventExtras } from "./event-actions";
import { createHeatRecorder } from "./heat-recorder";
import type { DetectorPool, FrameSource, FrameSourceOptions, MotionDetector, RawFrame } from "./types";

/** Lines and zones are read again this often: a change made in any process reaches the running scene within it. */
export const REGIONS_REFRESH_MS = 5_000;
/** No frame for this long: the pipeline is stalled (the camera is failing; the stream's own backoff restarts it). */
export const STALL_MS = 10_000;
/** Events that could not be saved (the database away) wait at most this many, oldest dropped first. */
const MAX_PENDING_EVENTS = 10_000;
/** An event waits at most this long for its photo and description (the studio's EXTRAS_TIMEOUT_MS). */
const EXTRAS_TIMEOUT_MS = 60_000;
/** Saving failed (the database restarting): tried again after this long. */
const SAVE_RETRY_MS = 1_000;
/** The rates and times are measured over this long. */
const WINDOW_MS = 10_000;

export interface WatchSettings {
  cameraId: string;
  userId: string;
  cameraName: string;
  labels: readonly string[];
  fps: number;
  width: number;
}

export interface PipelineParts {
  db: DB;
  streams: LiveStreams;
  blobs: BlobStore;
  vision: Vision;
  pool: DetectorPool;
  openFrames: (source: CameraSource, options: FrameSourceOptions) => FrameSource;
  createMotion: () => MotionDetector;
  loadSource: (userId: string, cameraId: string) => Promise<CameraSource>;
  log: Logger;
}

export type { ServerScene as LiveScene } from "#app/studio/local-vision/server-scene";

export interface RunningPipeline {
  settings: WatchSettings;
  stats(now?: number): PipelineStats;
  live(): LiveScene | null;
  /** Calls `listener` after each frame's scene step (the studio's live view); returns its removal. */
  onScene(listener: (scene: LiveScene) => void): () => void;
  /** Ends when the pipeline has stopped (closed, or its source ended for good). */
  done: Promise<void>;
  close(): Promise<void>;
}

interface Sample {
  at: number;
  detected: boolean;
  detectMs: number;
  cpuMs: number;
}

export function startCameraPipeline(settings: WatchSettings, parts: PipelineParts): RunningPipeline {
  const { db, pool, log } = parts;
  const plog = log.child({ cameraId: settings.cameraId });
  const scene = createScene();
  const watched = new Set(settings.labels);
  const heat = createHeatRecorder(settings.labels, (grid) => recordHeat(db, settings.userId, settings.cameraId, grid), plog);
  let regionClasses: ReadonlySet<string> | "all" | null = null;
  let frames: FrameSource | null = null;
  let closed = false;
  let startedAt = Date.now();
  let lastFrameAt: number | null = null;
  let stalled = false;
  let live: LiveScene | null = null;
  const listeners = new Set<(scene: LiveScene) => void>();
  const samples: Sample[] = [];
  /** Events in the order they happened, each with what it waits for (its photo and description), until saved. */
  let pending: { posted: VisionEvent; extras: Promise<EventExtras> | null; ready: EventExtras | null }[] = [];
  let saving: Promise<void> = Promise.resolve();
  let flushing = false;
  let rules: { lines: readonly Line[]; zones: readonly Zone[] } = { lines: [], zones: [] };
  let actions: ReturnType<typeof createEventActions> | null = null;
  /** The camera's "Capture on local vision" monitors (server/monitors/local.ts), read with the lines and zones. */
  let monitors: ReturnType<typeof createLocalMonitors> | null = null;
  let monitorClasses: ReadonlySet<string> = new Set();

  /** The frame source's running totals as stats() saw them, to take its rate and CPU over the window from them. */
  const sourceTotals: { at: number; decoded: number; cpuMs: number }[] = [];
  function sourceWindow(now: number): { decoded: number; cpuMs: number; ms: number } {
    const totals = frames?.stats() ?? { decoded: 0, decoderCpuMs: 0 };
    sourceTotals.push({ at: now, decoded: totals.decoded, cpuMs: totals.decoderCpuMs });
    while (sourceTotals.length > 1 && sourceTotals[0]!.at < now - WINDOW_MS) sourceTotals.shift();
    const first = sourceTotals[0]!;
    return { decoded: totals.decoded - first.decoded, cpuMs: Math.max(0, totals.decoderCpuMs - first.cpuMs), ms: now - first.at };
  }

  const tracked = (label: string) => watched.has(label) || monitorClasses.has(label) || regionClasses === "all" || (regionClasses !== null && regionClasses.has(label));

  async function refreshRegions(): Promise<void> {
    const [lines, zones] = await Promise.all([listLines(db, settings.userId, settings.cameraId), listZones(db, settings.userId, settings.cameraId), monitors?.refresh()]);
    monitorClasses = new Set(monitors?.labels() ?? []);
    rules = { lines, zones };
    scene.lines.setLines(lines.map(toLineDefinition));
    scene.zones.setZones(zones.map(toZoneDefinition));
    const labels = new Set<string>();
    let all = false;
    for (const region of [...lines, ...zones]) {
      if (region.labels.length === 0) all = true;
      region.labels.forEach((label) => labels.add(label));
    }
    regionClasses = all ? "all" : labels.size > 0 ? labels : null;
  }

  /**
   * Saves the events in the order they happened: the first ones ready (no action, or their photo and description
   * done) go out at once, one batch at a time; a failure keeps them for the next try (the database restarting).
   */
  function save(events: readonly LocalVisionEvent[]): void {
    for (const event of events) {
      const extras = actions?.forEvent(event, rules) ?? null;
      const entry = { posted: toPosted(event, 0), extras, ready: extras ? null : {} };
      if (extras) void withTimeout(extras).then((ready) => ((entry.ready = ready), flush()));
      pending.push(entry);
    }
    if (pending.length > MAX_PENDING_EVENTS) {
      plog.warn({ dropped: pending.length - MAX_PENDING_EVENTS }, "local-vision pipeline dropped unsaved events");
      pending = pending.slice(-MAX_PENDING_EVENTS);
    }
    flush();
  }

  function flush(): void {
    if (flushing) return;
    flushing = true;
    saving = saving.then(async () => {
      for (;;) {
        const ready = pending.findIndex((entry) => entry.ready === null);
        const batch = (ready === -1 ? pending : pending.slice(0, ready)).slice(0, 100);
        if (batch.length === 0) break;
        const posted = batch.map(({ posted, ready }) => ({ ...posted, ...definedOnly(ready!) }) as VisionEvent);
        try {
          await saveEvents(db, settings.userId, { id: settings.cameraId, name: settings.cameraName }, posted);
          await markWatchEvent(db, settings.cameraId, new Date(posted[posted.length - 1]!.at));
          pending = pending.slice(batch.length);
        } catch (error) {
          plog.warn({ err: error, events: batch.length }, "could not save the local-vision pipeline's events; trying again");
          if (closed) break;
          await new Promise((resolve) => setTimeout(resolve, SAVE_RETRY_MS));
        }
      }
      flushing = false;
    });
  }

  function step(frame: RawFrame, detections: readonly { box: Track["box"]; score: number; label: string }[]): void {
    const picked = detections.filter((d) => tracked(d.label)).map((d) => ({ box: d.box, score: d.score, label: d.label }));
    const { tracks, events } = scene.step(picked, frame.at);
    if (events.length > 0) save(events);
    heat.onFrame(tracks, frame.at);
    monitors?.onFrame(tracks, events, rules);
    live = {
      at: frame.at,
      tracks: tracks.filter(shown).map((t) => ({ id: t.id, label: t.label, box: t.box, score: t.score })),
      lineCounts: scene.lines.counts(),
      zoneOccupancy: scene.zones.occupancy(),
    };
    for (const listener of listeners) listener(live);
  }

  function record(sample: Sample): void {
    samples.push(sample);
    while (samples.length > 0 && samples[0]!.at < sample.at - WINDOW_MS) samples.shift();
  }

  async function run(): Promise<void> {
    const source = await parts.loadSource(settings.userId, settings.cameraId);
    if (closed) return;
    monitors = createLocalMonitors(parts, source);
    await refreshRegions();
    let regionsAt = Date.now();
    actions = createEventActions(parts, source);
    frames = parts.openFrames(source, { fps: settings.fps, width: settings.width });
    const motion = parts.createMotion();
    startedAt = Date.now();
    plog.info({ fps: settings.fps, width: settings.width, labels: settings.labels, detector: pool.stats().model }, "local-vision pipeline started");
    for (;;) {
      const frame = await frames.next();
      if (!frame || closed) return;
      if (stalled) plog.info({ stalledMs: frame.at - (lastFrameAt ?? startedAt) }, "local-vision pipeline recovered");
      stalled = false;
      lastFrameAt = frame.at;
      if (Date.now() - regionsAt >= REGIONS_REFRESH_MS) {
        regionsAt = Date.now();
        await refreshRegions().catch((error: unknown) => plog.warn({ err: error }, "could not read the camera's lines, zones and monitors; kept the last ones"));
      }
      const moved = motion.update(frame);
      // A still, empty scene skips the detector; one with tracks keeps it running (a person standing still moves
      // little, and the tracker needs its boxes to keep them).
      if (moved.regions.length === 0 && scene.tracker.tracks().length === 0) {
        step(frame, []);
        record({ at: frame.at, detected: false, detectMs: 0, cpuMs: 0 });
        continue;
      }
      let answer: Awaited<ReturnType<DetectorPool["detect"]>>;
      try {
        answer = await pool.detect({ cameraId: settings.cameraId, frame, minScore: TRACKER_MIN_SCORE, regions: moved.regions });
      } catch (error) {
        // A worker that died is replaced by the pool; this frame is lost, the next one goes on.
        plog.warn({ err: error }, "the detector failed on a frame");
        continue;
      }
      if (closed) return;
      if (answer === "busy") continue;
      step(frame, answer.detections);
      record({ at: frame.at, detected: true, detectMs: answer.detectMs, cpuMs: answer.cpuMs });
    }
  }

  const done = run()
    .catch((error: unknown) => {
      if (!closed) plog.error({ err: error }, "local-vision pipeline failed");
    })
    .finally(async () => {
      await frames?.close();
      await Promise.all([saving, monitors?.settled(), heat.close()]);
    });

  return {
    settings,
    stats(now = Date.now()) {
      const since = lastFrameAt ?? startedAt;
      if (!stalled && now - since > STALL_MS) {
        stalled = true;
        plog.warn({ reason: parts.streams.status(settings.cameraId)?.reason ?? null, sinceMs: now - since }, "local-vision pipeline stalled");
      }
      const recent = samples.filter((s) => s.at >= now - WINDOW_MS);
      const span = Math.max(1, Math.min(WINDOW_MS, now - startedAt)) / 1000;
      const detected = recent.filter((s) => s.detected);
      const source = sourceWindow(now);
      // The source's figures span the time since stats() was first asked within the window (every few seconds).
      const sourceSpan = source.ms > 0 ? source.ms / 1000 : span;
      const detectorCpu = detected.reduce((sum, s) => sum + s.cpuMs, 0);
      const state: PipelineStats["state"] = stalled ? "stalled" : lastFrameAt === null ? "starting" : "running";
      return {
        state,
        reason: state === "stalled" ? (parts.streams.status(settings.cameraId)?.reason ?? null) : null,
        decodeFps: round(source.ms > 0 ? source.decoded / sourceSpan : recent.length / span),
        detectFps: round(detected.length / span),
        droppedFrames: frames?.stats().dropped ?? 0,
        detectorMs: round(detected.length ? detected.reduce((sum, s) => sum + s.detectMs, 0) / detected.length : 0),
        cpuPercent: round((source.cpuMs / (sourceSpan * 1000) + detectorCpu / (span * 1000)) * 100),
        tracks: scene.tracker.tracks().filter(shown).length,
      };
    },
    live: () => live,
    onScene(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    done,
    async close() {
      if (closed) return done;
      closed = true;
      listeners.clear();
      await frames?.close();
      await done;
      plog.info("local-vision pipeline stopped");
    },
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

/** What an event waited for, or nothing once it waited too long (the event goes without). */
function withTimeout(extras: Promise<EventExtras>): Promise<EventExtras> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({}), EXTRAS_TIMEOUT_MS);
    void extras.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

const definedOnly = (extras: EventExtras): EventExtras => ({
  ...(extras.photoId ? { photoId: extras.photoId } : {}),
  ...(extras.description ? { description: extras.description } : {}),
});
