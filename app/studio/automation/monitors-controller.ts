// The Automate tab's monitors as the studio engine holds them: the list (reread while the tab shows it), the clock
// its "last run" times are read against, and the new-monitor form's request. Framework-free; the monitors section and
// the monitor form subscribe to `store`.
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import type { monitorsApi } from "../../lib/api/monitors";
import type { Monitor } from "../../schemas/monitors";
import type { Notifier } from "../notifier";
import { createStore, type Store } from "../store";

/** How often the list is read again while the tab is open (ticks run every few seconds at the fastest). */
export const MONITORS_REFRESH_MS = 5_000;

const FIELDS = ["cameraId", "query", "intervalSeconds", "minGapSeconds", "label", "regionId", "describePrompt"] as const;
export type MonitorFieldErrors = Partial<Record<(typeof FIELDS)[number], string>>;

/** A camera's line or zone as the form offers it (a local-vision monitor's trigger). */
export interface RegionChoice {
  id: string;
  name: string;
}
export interface CameraRegions {
  lines: RegionChoice[];
  zones: RegionChoice[];
}

export interface MonitorsState {
  /** Null until first loaded. */
  monitors: Monitor[] | null;
  /** When the list was read (Unix ms): "last run" is said relative to it. */
  now: number;
  formErrors: MonitorFieldErrors;
  saving: boolean;
  /** Each camera's lines and zones, read when the form offers a local-vision trigger on it. */
  regions: Record<string, CameraRegions>;
}

export type MonitorsApi = Pick<typeof monitorsApi, "list" | "create" | "pause" | "resume" | "remove">;
export type NewMonitor = Parameters<MonitorsApi["create"]>[0];

export interface MonitorsHost {
  api: MonitorsApi;
  notify: Notifier;
  /** Unix milliseconds. */
  now(): number;
  /** Whether the page is shown (a hidden tab does not poll). */
  visible(): boolean;
  /** The camera's lines and zones (the local-vision API). */
  regions(cameraId: string): Promise<CameraRegions>;
}

/** `settings.query` → `query`: the server names settings fields by their path in the body. */
function fieldErrorsOf(error: unknown): MonitorFieldErrors {
  const errors: MonitorFieldErrors = {};
  for (const [path, messages] of Object.entries(problemFieldErrors(error))) {
    const field = path.replace(/^settings\./, "") as keyof MonitorFieldErrors;
    if ((FIELDS as readonly string[]).includes(field) && messages[0]) errors[field] = messages[0];
  }
  return errors;
}

export class MonitorsController {
  readonly store: Store<MonitorsState>;
  private readonly timers = new Set<ReturnType<typeof setInterval>>();

  constructor(private readonly host: MonitorsHost) {
    this.store = createStore<MonitorsState>({ monitors: null, now: host.now(), formErrors: {}, saving: false, regions: {} });
  }

  async refresh(): Promise<void> {
    try {
      this.store.set({ monitors: await this.host.api.list(), now: this.host.now() });
    } catch (error) {
      console.warn("Failed to load monitors", error);
    }
  }

  /** Reads the list now and again every few seconds while the page is shown, until the returned stop is called. */
  watch(): () => void {
    // A fresh list each time the section shows ("Loading monitors..." until it comes).
    this.store.set({ monitors: null, formErrors: {} });
    void this.refresh();
    const timer = setInterval(() => {
      if (this.host.visible()) void this.refresh();
    }, MONITORS_REFRESH_MS);
    this.timers.add(timer);
    return () => {
      clearInterval(timer);
      this.timers.delete(timer);
    };
  }

  /** Reads the camera's lines and zones for the form (again each time: one may have been drawn since). */
  async loadRegions(cameraId: string): Promise<void> {
    try {
      const found = await this.host.regions(cameraId);
      this.store.set((state) => ({ regions: { ...state.regions, [cameraId]: found } }));
    } catch (error) {
      console.warn("Failed to load the camera's lines and zones", error);
    }
  }

  async act(monitor: Monitor, action: "pause" | "resume" | "remove"): Promise<void> {
    try {
      if (action === "remove") {
        await this.host.api.remove(monitor.id);
        this.store.set((state) => ({ monitors: state.monitors?.filter((m) => m.id !== monitor.id) ?? null }));
      } else {
        const updated = await this.host.api[action](monitor.id);
        this.store.set((state) => ({ monitors: state.monitors?.map((m) => (m.id === updated.id ? updated : m)) ?? null }));
      }
    } catch (error) {
      this.host.notify.toast({ title: "Error", description: errorDetail(error, "The monitor could not be changed"), variant: "destructive" });
    }
  }

  /** Starts a monitor: field errors under their fields, anything else as a toast. */
  async create(monitor: NewMonitor): Promise<void> {
    this.store.set({ saving: true, formErrors: {} });
    try {
      const created = await this.host.api.create(monitor);
      this.store.set((state) => ({ monitors: [...(state.monitors ?? []), created] }));
      this.host.notify.toast({ title: "Monitor started", description: created.name });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      this.store.set({ formErrors: fields });
      if (!Object.keys(fields).length) this.host.notify.toast({ title: "Error", description: errorDetail(error, "Failed to start the monitor"), variant: "destructive" });
    } finally {
      this.store.set({ saving: false });
    }
  }

  dispose(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}
