// Monitors on local vision (issue 30): a `local_capture` monitor saves a photo when its class appears (a new confirmed
// track), enters a zone, crosses a line or loiters, at most one per minimum gap (claimed in SQL, so it holds across
// processes), at the stream's full resolution through the server-side capture, optionally with one Moondream
// description of that picture (the only cloud call). It runs inside its camera's local-vision pipeline, which hands
// it each frame's tracks and events: no ticks, no interval (the tick queries leave this kind out).
import { LOCAL_TRIGGER_LABELS, type LocalCaptureSettings, type MonitorResult } from "#app/schemas/monitors";
import type { Line, Zone } from "#app/schemas/local-vision";
import { eventBox, eventSummary } from "#app/studio/local-vision/event-actions";
import type { LocalVisionEvent } from "#app/studio/local-vision/events";
import type { Track } from "#app/studio/local-vision/tracker";
import type { DB } from "#db/index";
import type { Logger } from "pino";
import { ownerSession } from "../accounts/service";
import type { CameraSource } from "../cameras/source";
import type { LiveStreams } from "../cameras/stream/live-streams";
import { cameraFrame } from "../images/frame";
import { createPhoto } from "../photos/service";
import type { BlobStore } from "../storage/blob-store";
import { recordMonitorError } from "../timeline/record";
import { query, type Vision } from "../vision/service";
import * as q from "./queries";

export interface LocalMonitorParts {
  db: DB;
  streams: Pick<LiveStreams, "snapshot">;
  blobs: BlobStore;
  vision: Vision;
  log: Logger;
}

type LocalMonitor = Awaited<ReturnType<typeof q.runningLocalMonitors>>[number] & { settings: LocalCaptureSettings };

/** What set a capture off: the words the photo and the monitor's last result keep, and the object's box. */
interface Moment {
  summary: string;
  box: ReturnType<typeof eventBox>;
}

/** The moment a monitor's trigger fired in this frame, if it did (the first one: the gap allows one photo anyway). */
function momentFor(settings: LocalCaptureSettings, appeared: readonly Track[], events: readonly LocalVisionEvent[], regions: Regions): Moment | null {
  if (settings.trigger === "appears") {
    const track = appeared.find((t) => t.label === settings.label);
    // The track's box as an event's (eventBox reads only the box, class and track id).
    return track ? { summary: `${track.label} appeared`, box: eventBox({ type: "zone.entered", zoneId: "", trackId: track.id, label: track.label, at: 0, box: track.box }) } : null;
  }
  const type = settings.trigger === "crosses" ? "line.crossed" : settings.trigger === "enters" ? "zone.entered" : "zone.loitering";
  const event = events.find((e) => e.type === type && e.label === settings.label && (e.type === "line.crossed" ? e.lineId : e.zoneId) === settings.regionId);
  if (!event) return null;
  const name = (event.type === "line.crossed" ? regions.lines : regions.zones).find((r) => r.id === settings.regionId)?.name ?? LOCAL_TRIGGER_LABELS[settings.trigger];
  return { summary: eventSummary(event, name), box: eventBox(event) };
}

interface Regions {
  lines: readonly Line[];
  zones: readonly Zone[];
}

/** One camera's local monitors, for its pipeline: `refresh` reads them again, `onFrame` acts on a frame's scene. */
export function createLocalMonitors(parts: LocalMonitorParts, source: CameraSource) {
  const { db, log } = parts;
  let monitors: LocalMonitor[] = [];
  /** Confirmed tracks already announced: a track "appears" once, the frame it is confirmed. */
  const announced = new Set<number>();
  /** Monitors saving a photo now: a trigger meanwhile is passed over (the gap would refuse it, or it is the same moment). */
  const busy = new Set<string>();
  const running = new Set<Promise<void>>();

  async function capture(monitor: LocalMonitor, moment: Moment): Promise<void> {
    const { settings } = monitor;
    const finish = (values: Parameters<typeof q.finishLocalRun>[2]) => q.finishLocalRun(db, monitor.id, { last_run_at: new Date(), ...values });
    if (!(await q.claimLocalSave(db, monitor.id, settings.minGapSeconds))) {
      await finish({ last_result: { event: moment.summary, photoId: null, skipped: `within the ${settings.minGapSeconds} s minimum gap` } satisfies MonitorResult });
      return;
    }
    try {
      const frame = cameraFrame(await parts.streams.snapshot(source));
      let description: string | undefined;
      let describeError: string | null = null;
      if (settings.describePrompt) {
        try {
          const session = await ownerSession(db, monitor.user_id);
          if (!session) throw new Error("The monitor's owner is gone");
          const input = { question: settings.describePrompt, priority: "loop" as const };
          description = (await query(db, parts.vision, { session, frame, input, feature: "monitors" })).answer.trim() || undefined;
        } catch (error) {
          // Free calls used up, a rejected key…: the photo is still worth keeping; the monitor says why it has no description.
          describeError = `No description: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
      const photo = await createPhoto(db, parts.blobs, monitor.user_id, {
        cameraId: monitor.camera_id,
        frame,
        videoWidth: frame.width,
        videoHeight: frame.height,
        captureMode: "single",
        autoCapture: true,
        detectionQuery: moment.summary,
        detectionBoxes: [moment.box],
        description: description ?? null,
      });
      const result: MonitorResult = { event: moment.summary, photoId: photo.id, ...(description ? { description } : {}) };
      await finish({ state: "running", status_message: describeError, last_result: result, last_error: describeError, failures: 0 });
    } catch (error) {
      const message = `Photo not saved: ${error instanceof Error ? error.message : String(error)}`;
      log.warn({ err: error, monitorId: monitor.id }, "a local-vision monitor could not save its photo");
      await finish({ state: "error", status_message: message, last_result: { event: moment.summary, photoId: null }, last_error: message, failures: monitor.failures + 1 });
      await recordMonitorError(db, { id: monitor.id, userId: monitor.user_id, name: monitor.name, kind: "local_capture", cameraId: monitor.camera_id }, message);
    }
  }

  return {
    async refresh(): Promise<void> {
      monitors = (await q.runningLocalMonitors(db, source.cameraId)) as LocalMonitor[];
    },
    /** The classes the monitors look for: the pipeline tracks them too, whatever the watch's classes. */
    labels(): string[] {
      return monitors.map((m) => m.settings.label);
    },
    onFrame(tracks: readonly Track[], events: readonly LocalVisionEvent[], regions: Regions): void {
      const appeared = tracks.filter((t) => t.confirmed && !announced.has(t.id));
      appeared.forEach((t) => announced.add(t.id));
      if (announced.size > tracks.length) for (const id of announced) if (!tracks.some((t) => t.id === id)) announced.delete(id);
      for (const monitor of monitors) {
        if (busy.has(monitor.id)) continue;
        const moment = momentFor(monitor.settings, appeared, events, regions);
        if (!moment) continue;
        busy.add(monitor.id);
        const done = capture(monitor, moment)
          .catch((error: unknown) => log.warn({ err: error, monitorId: monitor.id }, "could not record a local-vision monitor's run"))
          .finally(() => {
            busy.delete(monitor.id);
            running.delete(done);
          });
        running.add(done);
      }
    },
    /** Ends when the captures under way have finished (the pipeline is closing). */
    async settled(): Promise<void> {
      await Promise.all([...running]);
    },
  };
}
