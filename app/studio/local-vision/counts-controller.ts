// One truth for a camera's counts, shared by the Counts panel and the counters on the picture: the server's stored
// per-minute rows (the last 24 hours) plus the events this tab has counted that the server has not yet stored, so a
// crossing shows at once and is never counted twice once its batch is stored. Also what this tab counted since it was
// opened ("since you opened this tab"). Framework-free: the studio wires the reporter, the regions and the API.
import { errorDetail } from "../../lib/api/errors";
import type { CountRow, VisionEvent } from "../../schemas/local-vision";
import { createStore, type Store } from "../store";
import { startOfLocalDay, summarizeCounts, type CountsSummary } from "./counts-summary";
import type { ReportedListener } from "./event-reporter";
import type { CameraRegions } from "./regions-controller";

/** The shortest time between two reloads prompted by stored batches (a busy door stores a batch a second). */
export const RELOAD_GAP_MS = 5000;
/** Reloaded this often while the page is visible (other tabs and browsers count too; the day rolls over). */
export const REFRESH_MS = 30_000;

/** What this tab counted on one line or zone since it was opened (or since the line or zone was reset). */
export type SessionTally = Partial<Record<CountRow["kind"], number>>;

export interface CountsState {
  cameraId: string | null;
  /** The selected camera's lines and zones with their counts, stored and this tab's; null until both are loaded. */
  summary: CountsSummary | null;
  /** By line or zone id, for the selected camera. */
  session: Record<string, SessionTally>;
  error: string | null;
}

export interface CountsHost {
  cameras: { store: Pick<Store<{ selectedCameraId: string | null }>, "get" | "subscribe"> };
  /** The selected camera's lines and zones as the studio has them now (created, renamed and deleted ones included). */
  regions: { store: Pick<Store<{ byCamera: Record<string, CameraRegions> }>, "get" | "subscribe"> };
  reporter: { onChange(listener: ReportedListener): () => void };
  api: { counts(cameraId: string): Promise<{ rows: CountRow[] }> };
  /** Unix milliseconds. */
  now(): number;
  /** Whether the page is shown (no reloads for a hidden tab). */
  visible(): boolean;
}

interface LocalEvent {
  event: VisionEvent;
  /** The sequence number of the moment the server stored it (null: not yet). */
  storedSeq: number | null;
}

/** A posted event as a count row of its minute. */
function toRow(event: VisionEvent): CountRow {
  const minute = new Date(Math.floor(event.at / 60_000) * 60_000).toISOString();
  const base = { minute, label: event.label, count: 1 };
  if (event.type === "line.crossed") return { ...base, lineId: event.lineId, zoneId: null, kind: event.direction };
  const kind = event.type === "zone.entered" ? "entered" : event.type === "zone.exited" ? "exited" : "loitering";
  return { ...base, lineId: null, zoneId: event.zoneId, kind };
}

const regionOf = (event: VisionEvent) => (event.type === "line.crossed" ? event.lineId : event.zoneId);

export class CountsController {
  readonly store = createStore<CountsState>({ cameraId: null, summary: null, session: {}, error: null });
  private readonly offs: Array<() => void> = [];
  /** Per camera: this tab's events the last loaded rows may not include. */
  private readonly local = new Map<string, LocalEvent[]>();
  private readonly sessions = new Map<string, Record<string, SessionTally>>();
  /** Orders stores against loads: a row set includes every event stored before its load started. */
  private seq = 0;
  private rows: { cameraId: string; seq: number; rows: CountRow[] } | null = null;
  /** Per camera, the sequence number of its latest stored batch. */
  private readonly lastStored = new Map<string, number>();
  private lastLoad = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly refreshTimer: ReturnType<typeof setInterval>;

  constructor(private readonly host: CountsHost) {
    this.store.set({ cameraId: host.cameras.store.get().selectedCameraId });
    this.offs.push(
      host.cameras.store.subscribe(() => {
        const cameraId = host.cameras.store.get().selectedCameraId;
        if (cameraId === this.store.get().cameraId) return;
        this.store.set({ cameraId, summary: null, error: null });
        void this.load();
      }),
      host.regions.store.subscribe(() => this.publish()),
      host.reporter.onChange((change) => this.reported(change)),
    );
    this.refreshTimer = setInterval(() => {
      if (host.visible() && this.hasRegions()) void this.load();
    }, REFRESH_MS);
    void this.load();
  }

  private hasRegions(): boolean {
    const { cameraId } = this.store.get();
    const regions = cameraId ? this.host.regions.store.get().byCamera[cameraId] : undefined;
    return Boolean(regions && (regions.lines.length > 0 || regions.zones.length > 0));
  }

  /** Loads the selected camera's stored rows now. */
  async load(): Promise<void> {
    const cameraId = this.store.get().cameraId;
    if (!cameraId) return;
    const seq = ++this.seq;
    this.lastLoad = this.host.now();
    try {
      const { rows } = await this.host.api.counts(cameraId);
      // An answer older than one already shown is dropped.
      if (this.rows && this.rows.cameraId === cameraId && this.rows.seq > seq) return;
      // A batch stored while this load was under way may or may not be in its rows: they cannot be told apart, so the
      // rows shown stay (with this tab's events on top) until a load that started after it.
      if ((this.lastStored.get(cameraId) ?? 0) > seq && this.rows?.cameraId === cameraId) return this.reloadSoon();
      this.rows = { cameraId, seq, rows };
      // Events stored before this load started are in its rows now.
      this.local.set(
        cameraId,
        (this.local.get(cameraId) ?? []).filter((e) => e.storedSeq === null || e.storedSeq > seq),
      );
      this.store.set({ error: null });
      this.publish();
    } catch (error) {
      if (cameraId === this.store.get().cameraId) this.store.set({ error: errorDetail(error, "Could not load the counts") });
    }
  }

  /** A line's or zone's counts were reset: this tab's own figures for it go too, and the stored ones are read again. */
  forget(regionId: string): void {
    for (const [cameraId, events] of this.local)
      this.local.set(
        cameraId,
        events.filter((e) => regionOf(e.event) !== regionId),
      );
    for (const session of this.sessions.values()) delete session[regionId];
    this.publish();
    void this.load();
  }

  private reported({ cameraId, change, events }: Parameters<ReportedListener>[0]): void {
    const list = this.local.get(cameraId) ?? [];
    if (change === "queued") {
      const session = this.sessions.get(cameraId) ?? {};
      for (const event of events) {
        list.push({ event, storedSeq: null });
        const tally = (session[regionOf(event)] ??= {});
        const kind = toRow(event).kind;
        tally[kind] = (tally[kind] ?? 0) + 1;
      }
      this.sessions.set(cameraId, session);
      this.local.set(cameraId, list);
    } else if (change === "stored") {
      const stored = new Set(events);
      const seq = ++this.seq;
      this.lastStored.set(cameraId, seq);
      for (const entry of list) if (stored.has(entry.event)) entry.storedSeq = seq;
      if (cameraId === this.store.get().cameraId) this.reloadSoon();
    } else {
      const dropped = new Set(events);
      this.local.set(
        cameraId,
        list.filter((e) => !dropped.has(e.event)),
      );
    }
    if (cameraId === this.store.get().cameraId) this.publish();
  }

  /** Reloads after stored batches, at most every RELOAD_GAP_MS. */
  private reloadSoon(): void {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(
      () => {
        this.reloadTimer = undefined;
        void this.load();
      },
      Math.max(0, this.lastLoad + RELOAD_GAP_MS - this.host.now()),
    );
  }

  private publish(): void {
    const { cameraId } = this.store.get();
    const regions = cameraId ? this.host.regions.store.get().byCamera[cameraId] : undefined;
    if (!cameraId || !regions || !this.rows || this.rows.cameraId !== cameraId) return this.store.set({ summary: null, session: {} });
    const now = this.host.now();
    const mine = (this.local.get(cameraId) ?? []).map((e) => toRow(e.event));
    this.store.set({ summary: summarizeCounts([...this.rows.rows, ...mine], regions, now, startOfLocalDay(now)), session: { ...this.sessions.get(cameraId) } });
  }

  dispose(): void {
    this.offs.forEach((off) => off());
    clearInterval(this.refreshTimer);
    clearTimeout(this.reloadTimer);
  }
}
