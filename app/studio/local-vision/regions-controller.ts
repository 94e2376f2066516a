// The selected camera's zones and lines: loaded from the server, kept per camera, handed to the on-device scene
// (which counts them while local detection runs), and created, changed, reset and deleted through the API.
// Also what is being drawn on the preview now, so the Detections tab and the overlay share one state.
import { errorDetail } from "../../lib/api/errors";
import type { localVisionApi } from "../../lib/api/local-vision";
import type { Line, LineInput, VisionPoint, Zone, ZoneInput } from "../../schemas/local-vision";
import type { Notifier } from "../notifier";
import { createStore, type Store } from "../store";
import type { LocalRegions } from "./local-vision-controller";

import { pathCrossesItself, ZONE_EDGES_CROSS, zoneShapeProblem } from "./region-geometry";
import { toLineDefinition, toZoneDefinition } from "./region-definitions";

export type RegionsApi = Pick<
  typeof localVisionApi,
  "zones" | "lines" | "createZone" | "updateZone" | "removeZone" | "resetZone" | "createLine" | "updateLine" | "removeLine" | "resetLine"
>;

export type RegionKind = "line" | "zone";

/** A line or zone being drawn: the points placed so far (normalised 0–1). */
export interface RegionDraft {
  kind: RegionKind;
  points: VisionPoint[];
}

export interface CameraRegions {
  lines: Line[];
  zones: Zone[];
}

export interface RegionsState {
  /** Each loaded camera's lines and zones, as the server last answered. */
  byCamera: Record<string, CameraRegions>;
  cameraId: string | null;
  loading: boolean;
  /** The line or zone being drawn, or null. */
  draft: RegionDraft | null;
  /** The line or zone whose points can be dragged and whose form is open. */
  editing: { kind: RegionKind; id: string } | null;
  /** Why the zone being drawn or edited was not taken (its edges cross, no area), shown under it; null when fine. */
  shapeProblem: string | null;
}

export interface RegionsHost {
  cameras: { store: Pick<Store<{ selectedCameraId: string | null }>, "get" | "subscribe"> };
  localVision: {
    setRegions(cameraId: string, regions: LocalRegions): void;
    resetLine(lineId: string): void;
    /** The classes local detection looks for now: a new line or zone starts watching these. */
    store: Pick<Store<{ classes: readonly string[]; enabled: boolean; countingPeople: boolean }>, "get" | "subscribe">;
  };
  notify: Pick<Notifier, "toast">;
  api: RegionsApi;
  /** After a line's or zone's counts were reset on the server (the counts shown read them again). */
  afterReset?(id: string): void;
}

/** Changes to a line or zone: any of its input's fields. */
export type LinePatch = Partial<LineInput>;
export type ZonePatch = Partial<ZoneInput>;

export function lineInput(line: Line, patch: LinePatch = {}): LineInput {
  const { name, a, b, labels, anchor, settleFrames, capturePhoto, describePrompt } = line;
  return { name, a, b, labels, anchor, settleFrames, capturePhoto, describePrompt, ...patch };
}

export function zoneInput(zone: Zone, patch: ZonePatch = {}): ZoneInput {
  const { name, polygon, labels, anchor, inertia, loiterSeconds, capturePhoto, describePrompt } = zone;
  return { name, polygon, labels, anchor, inertia, loiterSeconds, capturePhoto, describePrompt, ...patch };
}

/** "Line 3": the first number not yet taken by a same-kind name. */
export function nextName(kind: RegionKind, taken: readonly { name: string }[]): string {
  const word = kind === "line" ? "Line" : "Zone";
  const names = new Set(taken.map((r) => r.name));
  let n = taken.length + 1;
  while (names.has(`${word} ${n}`)) n++;
  return `${word} ${n}`;
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
/** A point kept on the picture (the API takes 0–1) and rounded to what a person can place. */
export function clampPoint(p: VisionPoint): VisionPoint {
  return { x: Math.round(clamp(p.x) * 10000) / 10000, y: Math.round(clamp(p.y) * 10000) / 10000 };
}

export class RegionsController {
  readonly store = createStore<RegionsState>({ byCamera: {}, cameraId: null, loading: false, draft: null, editing: null, shapeProblem: null });
  private readonly offs: Array<() => void> = [];
  /** Cameras whose load is under way, so one is asked for once. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly host: RegionsHost) {
    this.store.set({ cameraId: host.cameras.store.get().selectedCameraId });
    void this.load();
    let running = this.localVisionRuns();
    this.offs.push(
      host.cameras.store.subscribe(() => {
        const cameraId = host.cameras.store.get().selectedCameraId;
        if (cameraId === this.store.get().cameraId) return;
        this.store.set({ cameraId, draft: null, editing: null, shapeProblem: null });
        this.push();
        // The selected camera's lines and zones are drawn on its picture whether or not anything counts.
        void this.load();
      }),
      // Counting needs the camera's lines and zones as they are now when the detector starts.
      host.localVision.store.subscribe(() => {
        const now = this.localVisionRuns();
        if (now && !running) void this.load({ fresh: true });
        running = now;
      }),
    );
  }

  private localVisionRuns(): boolean {
    const { enabled, countingPeople } = this.host.localVision.store.get();
    return enabled || countingPeople;
  }

  /** The selected camera's lines and zones (empty until loaded). */
  current(): CameraRegions {
    const { byCamera, cameraId } = this.store.get();
    return (cameraId && byCamera[cameraId]) || { lines: [], zones: [] };
  }

  /**
   * Loads the selected camera's lines and zones (on selecting it); `fresh` asks the server again even when loaded, as
   * the section and switching the detector on do, so lines made in another tab or browser are counted.
   */
  load({ fresh = false }: { fresh?: boolean } = {}): Promise<void> {
    const cameraId = this.store.get().cameraId;
    if (!cameraId || (!fresh && this.store.get().byCamera[cameraId])) return Promise.resolve();
    const existing = this.pending.get(cameraId);
    if (existing) return existing;
    this.store.set({ loading: true });
    const loading = Promise.all([this.host.api.lines(cameraId), this.host.api.zones(cameraId)])
      .then(([lines, zones]) => this.put(cameraId, { lines, zones }))
      .catch((error) => this.fail("Could not load the zones and lines", error))
      .finally(() => {
        this.pending.delete(cameraId);
        this.store.set({ loading: this.pending.size > 0 });
      });
    this.pending.set(cameraId, loading);
    return loading;
  }

  private put(cameraId: string, regions: CameraRegions): void {
    this.store.set((s) => ({ byCamera: { ...s.byCamera, [cameraId]: regions } }));
    if (cameraId === this.store.get().cameraId) this.push();
  }

  /** Hands the selected camera's lines and zones to the scene (it keeps one camera's: the selected one). */
  private push(): void {
    const { cameraId, byCamera } = this.store.get();
    const regions = cameraId ? byCamera[cameraId] : undefined;
    if (!cameraId || !regions) return;
    this.host.localVision.setRegions(cameraId, { lines: regions.lines.map(toLineDefinition), zones: regions.zones.map(toZoneDefinition) });
  }

  private change(cameraId: string, update: (regions: CameraRegions) => CameraRegions): void {
    const before = this.store.get().byCamera[cameraId] ?? { lines: [], zones: [] };
    this.put(cameraId, update(before));
  }

  private fail(title: string, error: unknown): void {
    this.host.notify.toast({ title, description: errorDetail(error, "Please try again."), variant: "destructive" });
  }

  // Drawing: the overlay places points, the controller keeps them and saves the result.

  startDrawing(kind: RegionKind): void {
    this.store.set({ draft: { kind, points: [] }, editing: null, shapeProblem: null });
  }

  cancelDrawing(): void {
    this.store.set({ draft: null, shapeProblem: null });
  }

  /**
   * Replaces the draft's points (a line's drag moves its second end; a zone adds one per click). A zone's corner whose
   * edge would cross the edges drawn so far is not placed: the reason shows instead, and the next click tries again.
   */
  setDraftPoints(points: readonly VisionPoint[]): void {
    const draft = this.store.get().draft;
    if (!draft) return;
    const next = points.map(clampPoint);
    if (draft.kind === "zone" && pathCrossesItself(next, false)) return this.store.set({ shapeProblem: ZONE_EDGES_CROSS });
    this.store.set({ draft: { ...draft, points: next }, shapeProblem: null });
  }

  /** Saves the draft as a new line (two points) or zone (three or more); false when it is not complete yet. */
  async finishDrawing(): Promise<boolean> {
    const { draft, cameraId } = this.store.get();
    if (!draft || !cameraId) return false;
    const classes = [...this.host.localVision.store.get().classes];
    const regions = this.current();
    if (draft.kind === "line") {
      const [a, b] = draft.points;
      if (!a || !b || draft.points.length !== 2) return false;
      this.store.set({ draft: null });
      const line = await this.host.api
        .createLine(cameraId, { name: nextName("line", regions.lines), a, b, labels: classes })
        .catch((error) => this.fail("Could not add the line", error));
      if (!line) return false;
      this.change(cameraId, (r) => ({ ...r, lines: [...r.lines, line] }));
      this.store.set({ editing: { kind: "line", id: line.id } });
      return true;
    }
    if (draft.points.length < 3) return false;
    // Closing a zone whose edges cross (or that encloses nothing) keeps it open, with the reason under it.
    const problem = zoneShapeProblem(draft.points);
    if (problem) {
      this.store.set({ shapeProblem: problem });
      return false;
    }
    this.store.set({ draft: null });
    const zone = await this.host.api
      .createZone(cameraId, { name: nextName("zone", regions.zones), polygon: draft.points, labels: classes })
      .catch((error) => this.fail("Could not add the zone", error));
    if (!zone) return false;
    this.change(cameraId, (r) => ({ ...r, zones: [...r.zones, zone] }));
    this.store.set({ editing: { kind: "zone", id: zone.id } });
    return true;
  }

  // Editing saved lines and zones.

  edit(target: { kind: RegionKind; id: string } | null): void {
    this.store.set({ editing: target, draft: null, shapeProblem: null });
  }

  /** Saves changes to a line; true when the server took them (a refusal is toasted and the line stays as it was). */
  async updateLine(id: string, patch: LinePatch): Promise<boolean> {
    const found = this.find("line", id);
    if (!found) return false;
    const saved = await this.host.api.updateLine(id, lineInput(found.region as Line, patch)).catch((error) => this.fail("Could not save the line", error));
    if (!saved) return false;
    this.change(found.cameraId, (r) => ({ ...r, lines: r.lines.map((l) => (l.id === id ? saved : l)) }));
    return true;
  }

  /** Saves changes to a zone; new corners whose edges cross are not sent: the reason shows and the zone stays as it was. */
  async updateZone(id: string, patch: ZonePatch): Promise<boolean> {
    const found = this.find("zone", id);
    if (!found) return false;
    const problem = patch.polygon ? zoneShapeProblem(patch.polygon) : null;
    this.store.set({ shapeProblem: problem });
    if (problem) return false;
    const saved = await this.host.api.updateZone(id, zoneInput(found.region as Zone, patch)).catch((error) => this.fail("Could not save the zone", error));
    if (!saved) return false;
    this.change(found.cameraId, (r) => ({ ...r, zones: r.zones.map((z) => (z.id === id ? saved : z)) }));
    return true;
  }

  async remove(kind: RegionKind, id: string): Promise<boolean> {
    const found = this.find(kind, id);
    if (!found) return false;
    try {
      await (kind === "line" ? this.host.api.removeLine(id) : this.host.api.removeZone(id));
    } catch (error) {
      this.fail(kind === "line" ? "Could not delete the line" : "Could not delete the zone", error);
      return false;
    }
    this.change(found.cameraId, (r) => (kind === "line" ? { ...r, lines: r.lines.filter((l) => l.id !== id) } : { ...r, zones: r.zones.filter((z) => z.id !== id) }));
    if (this.store.get().editing?.id === id) this.store.set({ editing: null });
    return true;
  }

  /** Resets a line's or zone's counts: the server's stored ones, and a line's live counts on the preview. */
  async reset(kind: RegionKind, id: string): Promise<boolean> {
    try {
      await (kind === "line" ? this.host.api.resetLine(id) : this.host.api.resetZone(id));
    } catch (error) {
      this.fail(kind === "line" ? "Could not reset the line" : "Could not reset the zone", error);
      return false;
    }
    // A zone's live figure is who is inside now, which a reset does not change.
    if (kind === "line") this.host.localVision.resetLine(id);
    this.host.afterReset?.(id);
    return true;
  }

  private find(kind: RegionKind, id: string): { cameraId: string; region: Line | Zone } | null {
    for (const [cameraId, regions] of Object.entries(this.store.get().byCamera)) {
      const region = kind === "line" ? regions.lines.find((l) => l.id === id) : regions.zones.find((z) => z.id === id);
      if (region) return { cameraId, region };
    }
    return null;
  }

  dispose(): void {
    this.offs.forEach((off) => off());
  }
}

/** A line's counter, as the preview and the list show it: today's stored totals and this tab's, "Door: 3 in · 1 out today". */
export function lineCounterText(name: string, today: { in: number; out: number } | undefined): string {
  return `${name}: ${today?.in ?? 0} in · ${today?.out ?? 0} out today`;
}

/** A zone's counter: who is inside now while something watches (null: nothing does), and today's entries. */
export function zoneCounterText(name: string, today: { entered: number } | undefined, occupancy: { count: number } | null): string {
  const entered = `${today?.entered ?? 0} entered today`;
  return occupancy ? `${name}: ${occupancy.count} inside · ${entered}` : `${name}: ${entered}`;
}
