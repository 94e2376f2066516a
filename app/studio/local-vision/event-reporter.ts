// Local vision's events on their way to the server: every line/zone event the controller reports is queued per
// camera in the order it happened, waits for its photo and description when its rule asks for them, and goes out in
// batches (≤ 100, about once a second) to POST /api/cameras/{id}/vision-events. A failed batch is sent again, whole
// and unchanged, after a backoff (429: after its Retry-After), so nothing is lost or sent twice by the studio; a batch
// the server refuses (any other 4xx) can never succeed and is dropped, with one toast. Each camera's heat grid (where
// people walked and stayed: ./heat-grid.ts, fed every frame) rides along about once a minute and at each new hour,
// in a batch of its own when no events are waiting.
import { ApiError, errorDetail } from "../../lib/api/errors";
import { MAX_VISION_EVENTS, type VisionEvent, type VisionHeat } from "../../schemas/local-vision";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import { toPosted } from "./events";
import { addInto, createHeatGrid, type HeatGrid, type HeatSnapshot } from "./heat-grid";
import type { LocalEventsFrame, LocalEventsListener, LocalTracksFrame, LocalTracksListener } from "./local-vision-controller";

/** How often queued events are sent. */
export const FLUSH_INTERVAL_MS = 1000;
/** Backoff after a failed batch: doubling from the first, capped. */
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 30_000;
/** Events kept per camera while the server cannot be reached (about an hour of a busy door); the oldest go first. */
export const MAX_QUEUED_EVENTS = 10_000;
/** An event whose photo or description takes longer than this goes out without them (later events wait behind it). */
export const EXTRAS_TIMEOUT_MS = 60_000;
/** How often a camera's heat grid is sent (in the frames' time), besides at each new hour and on dispose. */
export const HEAT_SEND_MS = 60_000;
/** Hours of heat kept per camera while the server cannot be reached (the server takes a day back). */
export const MAX_QUEUED_HEAT = 24;

/** What an event's rule added to it: its photo and Moondream's description. */
export interface EventExtras {
  photoId?: string;
  description?: string;
}

/** For each event of a frame (same order), its extras to wait for, or null when its rule asks for none. */
export type EventActionsFn = (frame: LocalEventsFrame) => ReadonlyArray<Promise<EventExtras> | null>;

export interface EventReporterHost {
  onEvents(listener: LocalEventsListener): () => void;
  /** Every frame's tracks of the watched classes, for the heat grid (none without it). */
  onTracks?(listener: LocalTracksListener): () => void;
  /** `batchId` names the batch: sent again after a failure with the same id, the server records it once. */
  post(cameraId: string, batch: { batchId: string; events: VisionEvent[]; heat?: VisionHeat }, options: { keepalive: boolean }): Promise<unknown>;
  notify: Pick<Notifier, "toast">;
  /** `performance.timeOrigin`: the frame's `performance.now()` time plus this is Unix milliseconds. */
  timeOrigin: number;
  actions?: EventActionsFn;
}

interface Entry {
  event: VisionEvent;
  /** False while its photo or description is being made. */
  ready: boolean;
}

interface CameraQueue {
  entries: Entry[];
  sending: boolean;
  /**
   * The batch last sent and not yet answered for good: the first `size` entries, under `id`. It goes again exactly as
   * it was (never grown by events that became ready since), so if the server had stored it and only the answer was
   * lost, the same id tells it so.
   */
  batch: { id: string; size: number; heat: HeatSnapshot | null } | null;
  /** Failed batches in a row, and when the next may be sent (Date.now()). */
  failures: number;
  notBefore: number;
  /** Where people walked and stayed since the grid was last taken, and the grids taken and not yet stored (oldest first). */
  grid: HeatGrid;
  heats: HeatSnapshot[];
  /** The frame time (Unix ms) the grid was last taken at. */
  heatTakenAt: number | null;
}

export interface EventReporterState {
  /** Batches the server accepted in this visit, and the camera of the last one (the Counts panel reloads on it). */
  posted: number;
  lastCameraId: string | null;
}

/**
 * What happened to events: queued (counted by this tab, on their way), stored (the server has them in its counts), or
 * dropped (refused, or pushed out of a full queue: they will never be counted). The same event objects each time.
 */
export type ReportedChange = { cameraId: string; change: "queued" | "stored" | "dropped"; events: readonly VisionEvent[] };
export type ReportedListener = (change: ReportedChange) => void;

/** How long to wait before sending a failed batch again; null: the server refused it for good (drop it). */
export function retryDelay(error: unknown, failures: number): number | null {
  if (error instanceof ApiError) {
    if (error.status === 429) return error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : backoff(failures);
    if (error.status >= 400 && error.status < 500) return null;
  }
  return backoff(failures);
}

const backoff = (failures: number) => Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));

export class EventReporter {
  readonly store = createStore<EventReporterState>({ posted: 0, lastCameraId: null });
  private readonly queues = new Map<string, CameraQueue>();
  private readonly offs: Array<() => void>;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private refusedShown = false;
  /** The camera of the latest frame's tracks. */
  private tracksCameraId: string | null = null;
  private readonly listeners = new Set<ReportedListener>();

  constructor(private readonly host: EventReporterHost) {
    this.offs = [host.onEvents((frame) => this.add(frame)), host.onTracks?.((frame) => this.addTracks(frame)) ?? (() => {})];
  }

  /** Called as events are queued, stored or dropped (the counts on the picture add up what the server has not yet); returns the unsubscribe. */
  onChange(listener: ReportedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(cameraId: string, change: ReportedChange["change"], entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const events = entries.map((entry) => entry.event);
    for (const listener of this.listeners) listener({ cameraId, change, events });
  }

  private add(frame: LocalEventsFrame): void {
    if (this.disposed) return;
    const extras = this.host.actions?.(frame) ?? [];
    const queue = this.queueOf(frame.cameraId);
    const start = queue.entries.length;
    frame.events.forEach((event, index) => {
      const entry: Entry = { event: toPosted(event, this.host.timeOrigin), ready: true };
      const pending = extras[index];
      if (pending) {
        entry.ready = false;
        // The actions report their own failures: an event goes out with what could be made.
        let timeout: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<EventExtras>((resolve) => (timeout = setTimeout(() => resolve({}), EXTRAS_TIMEOUT_MS)));
        void Promise.race([pending, late])
          .then((added) => Object.assign(entry.event, definedOnly(added)))
          .catch(() => undefined)
          .finally(() => {
            clearTimeout(timeout);
            entry.ready = true;
          });
      }
      queue.entries.push(entry);
    });
    this.tell(frame.cameraId, "queued", queue.entries.slice(start));
    if (queue.entries.length > MAX_QUEUED_EVENTS) {
      const dropped = queue.entries.splice(0, queue.entries.length - MAX_QUEUED_EVENTS);
      this.tell(frame.cameraId, "dropped", dropped);
      console.warn(`Local vision: the server could not be reached; ${dropped.length} oldest events were dropped`);
    }
    this.schedule();
  }

  /** A frame's tracks into the camera's heat grid; the grid goes to the send queue at a new hour and once a minute. */
  private addTracks(frame: LocalTracksFrame): void {
    if (this.disposed) return;
    // Another camera selected: the last one's grid will see no frame for a while, so it goes now.
    if (this.tracksCameraId !== null && this.tracksCameraId !== frame.cameraId) {
      const left = this.queues.get(this.tracksCameraId);
      if (left) this.takeHeat(left, null);
    }
    this.tracksCameraId = frame.cameraId;
    const queue = this.queueOf(frame.cameraId);
    const at = this.host.timeOrigin + frame.at;
    const finished = queue.grid.update(frame.tracks, at);
    if (finished) queueHeat(queue, finished);
    queue.heatTakenAt ??= at;
    if (finished || at - queue.heatTakenAt >= HEAT_SEND_MS) this.takeHeat(queue, at);
  }

  /** Queues what the camera's grid holds to be sent; `at`: the frame time it was taken at (null: none, start afresh). */
  private takeHeat(queue: CameraQueue, at: number | null): void {
    queue.heatTakenAt = at;
    const taken = queue.grid.take();
    if (taken) queueHeat(queue, taken);
    if (queue.heats.length > 0) this.schedule();
  }

  private queueOf(cameraId: string): CameraQueue {
    let queue = this.queues.get(cameraId);
    if (!queue) {
      queue = { entries: [], sending: false, batch: null, failures: 0, notBefore: 0, grid: createHeatGrid({ labels: [] }), heats: [], heatTakenAt: null };
      this.queues.set(cameraId, queue);
    }
    return queue;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
      if ([...this.queues.values()].some((q) => q.entries.length > 0 || q.heats.length > 0)) this.schedule();
    }, FLUSH_INTERVAL_MS);
  }

  /** Sends each camera's next batch: the ready events at the front of its queue, in order (one batch in flight each). */
  private flush(): void {
    const now = Date.now();
    for (const [cameraId, queue] of this.queues) {
      if (queue.sending || now < queue.notBefore) continue;
      const batch = nextBatch(queue);
      if (batch) void this.send(cameraId, queue, batch);
    }
  }

  private async send(cameraId: string, queue: CameraQueue, batch: Batch): Promise<void> {
    queue.sending = true;
    try {
      await this.host.post(cameraId, posted(batch), { keepalive: false });
      if (this.disposed) return;
      // Only this method removes entries, and only from the front: the batch is still the queue's first events (and heat).
      if (batch.heat) queue.heats.shift();
      this.tell(cameraId, "stored", queue.entries.splice(0, batch.entries.length));
      queue.batch = null;
      queue.failures = 0;
      queue.notBefore = 0;
      this.store.set((s) => ({ posted: s.posted + 1, lastCameraId: cameraId }));
    } catch (error) {
      if (this.disposed) return;
      queue.failures += 1;
      const delay = retryDelay(error, queue.failures);
      if (delay === null) {
        if (batch.heat) queue.heats.shift();
        this.tell(cameraId, "dropped", queue.entries.splice(0, batch.entries.length));
        queue.batch = null;
        queue.failures = 0;
        this.refused(error);
      } else {
        queue.notBefore = Date.now() + delay;
        console.warn(`Local vision events not sent (${errorDetail(error, "network error")}); trying again in ${Math.ceil(delay / 1000)} s`);
      }
    } finally {
      queue.sending = false;
    }
  }

  private refused(error: unknown): void {
    console.warn("Local vision events refused:", errorDetail(error, "unknown error"));
    if (this.refusedShown) return;
    this.refusedShown = true;
    this.host.notify.toast({ title: "Local vision events were not saved", description: errorDetail(error, "The server refused them."), variant: "destructive" });
  }

  /** Stops listening and sending; the events ready now go out once more (keepalive, so leaving the page does not cut them off). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.offs.forEach((off) => off());
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [cameraId, queue] of this.queues) {
      const taken = queue.grid.take();
      if (taken) queueHeat(queue, taken);
      const batch = queue.sending ? null : nextBatch(queue);
      if (batch) void this.host.post(cameraId, posted(batch), { keepalive: true }).catch(() => undefined);
    }
    this.queues.clear();
  }
}

interface Batch {
  id: string;
  entries: Entry[];
  heat: HeatSnapshot | null;
}

/**
 * The queue's next batch: the unanswered one again, or else the ready events at its front and its oldest heat grid
 * under a new id (heat alone when no event is ready).
 */
function nextBatch(queue: CameraQueue): Batch | null {
  if (queue.batch) return { id: queue.batch.id, entries: queue.entries.slice(0, queue.batch.size), heat: queue.batch.heat };
  const entries = readyPrefix(queue.entries);
  const heat = queue.heats[0] ?? null;
  if (entries.length === 0 && !heat) return null;
  queue.batch = { id: randomId(), size: entries.length, heat };
  return { id: queue.batch.id, entries, heat };
}

const posted = (batch: Batch) => ({ batchId: batch.id, events: batch.entries.map((entry) => entry.event), ...(batch.heat ? { heat: batch.heat } : {}) });

/**
 * Queues a grid to send: added into the last one waiting for the same hour (unless that one is already in a batch,
 * which goes again unchanged), so a camera waits with at most one grid an hour; the oldest hours go first.
 */
function queueHeat(queue: CameraQueue, heat: HeatSnapshot): void {
  const last = queue.heats[queue.heats.length - 1];
  if (last && last.hour === heat.hour && last !== queue.batch?.heat) addInto(last, heat);
  else queue.heats.push(heat);
  if (queue.heats.length > MAX_QUEUED_HEAT) queue.heats.splice(queue.batch?.heat ? 1 : 0, 1);
}

/** A version-4 UUID; `crypto.randomUUID` exists only in secure contexts, and the studio may be opened over plain http on a LAN. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function readyPrefix(entries: readonly Entry[]): Entry[] {
  const batch: Entry[] = [];
  for (const entry of entries) {
    if (!entry.ready || batch.length >= MAX_VISION_EVENTS) break;
    batch.push(entry);
  }
  return batch;
}

function definedOnly(extras: EventExtras): EventExtras {
  return {
    ...(extras.photoId ? { photoId: extras.photoId } : {}),
    ...(extras.description ? { description: extras.description } : {}),
  };
}
