// Local vision's events on their way to the server: every line/zone event the controller reports is queued per
// camera in the order it happened, waits for its photo and description when its rule asks for them, and goes out in
// batches (≤ 100, about once a second) to POST /api/cameras/{id}/vision-events. A failed batch is sent again, whole
// and unchanged, after a backoff (429: after its Retry-After), so nothing is lost or sent twice by the studio; a batch
// the server refuses (any other 4xx) can never succeed and is dropped, with one toast.
import { ApiError, errorDetail } from "../../lib/api/errors";
import { MAX_VISION_EVENTS, type VisionEvent } from "../../schemas/local-vision";
import type { Notifier } from "../notifier";
import { createStore } from "../store";
import { toPosted } from "./events";
import type { LocalEventsFrame, LocalEventsListener } from "./local-vision-controller";

/** How often queued events are sent. */
export const FLUSH_INTERVAL_MS = 1000;
/** Backoff after a failed batch: doubling from the first, capped. */
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 30_000;
/** Events kept per camera while the server cannot be reached (about an hour of a busy door); the oldest go first. */
export const MAX_QUEUED_EVENTS = 10_000;
/** An event whose photo or description takes longer than this goes out without them (later events wait behind it). */
export const EXTRAS_TIMEOUT_MS = 60_000;

/** What an event's rule added to it: its photo and Moondream's description. */
export interface EventExtras {
  photoId?: string;
  description?: string;
}

/** For each event of a frame (same order), its extras to wait for, or null when its rule asks for none. */
export type EventActionsFn = (frame: LocalEventsFrame) => ReadonlyArray<Promise<EventExtras> | null>;

export interface EventReporterHost {
  onEvents(listener: LocalEventsListener): () => void;
  /** `batchId` names the batch: sent again after a failure with the same id, the server records it once. */
  post(cameraId: string, batch: { batchId: string; events: VisionEvent[] }, options: { keepalive: boolean }): Promise<unknown>;
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
  batch: { id: string; size: number } | null;
  /** Failed batches in a row, and when the next may be sent (Date.now()). */
  failures: number;
  notBefore: number;
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
  private readonly off: () => void;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private refusedShown = false;
  private readonly listeners = new Set<ReportedListener>();

  constructor(private readonly host: EventReporterHost) {
    this.off = host.onEvents((frame) => this.add(frame));
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

  private queueOf(cameraId: string): CameraQueue {
    let queue = this.queues.get(cameraId);
    if (!queue) {
      queue = { entries: [], sending: false, batch: null, failures: 0, notBefore: 0 };
      this.queues.set(cameraId, queue);
    }
    return queue;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
      if ([...this.queues.values()].some((q) => q.entries.length > 0)) this.schedule();
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

  private async send(cameraId: string, queue: CameraQueue, batch: { id: string; entries: Entry[] }): Promise<void> {
    queue.sending = true;
    try {
      await this.host.post(cameraId, { batchId: batch.id, events: batch.entries.map((entry) => entry.event) }, { keepalive: false });
      if (this.disposed) return;
      // Only this method removes entries, and only from the front: the batch is still the queue's first events.
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
    this.off();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [cameraId, queue] of this.queues) {
      const batch = queue.sending ? null : nextBatch(queue);
      if (batch) void this.host.post(cameraId, { batchId: batch.id, events: batch.entries.map((entry) => entry.event) }, { keepalive: true }).catch(() => undefined);
    }
    this.queues.clear();
  }
}

/** The queue's next batch: the unanswered one again, or else the ready events at its front under a new id. */
function nextBatch(queue: CameraQueue): { id: string; entries: Entry[] } | null {
  if (queue.batch) return { id: queue.batch.id, entries: queue.entries.slice(0, queue.batch.size) };
  const entries = readyPrefix(queue.entries);
  if (entries.length === 0) return null;
  queue.batch = { id: randomId(), size: entries.length };
  return { id: queue.batch.id, entries };
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
