// The preview's visual overlays as the studio engine holds them: the persisted settings, the user's
// LUT library (built-ins first, then uploads) and the selected LUT, parsed by the image-core worker.
// Framework-free; the settings panel, the preview and the gallery subscribe to `store`.
import { MAX_CUBE_TEXT_LENGTH } from "../../image/constants";
import { CUBE_HEAD_LENGTH } from "../../image/cube-parse";
import { CubeParseError } from "../../image/cube-parse-error";
import { createImageCoreClient, type ImageCoreClient } from "../../image/image-core-client";
import { DEFAULT_OVERLAY_SETTINGS, lutActive, OVERLAY_SETTINGS_KEY, sanitizeOverlaySettings, type OverlaySettings } from "../../image/overlay-settings";
import type { ParsedLut } from "../../image/types";
import { errorDetail } from "../../lib/api/errors";
import { lutsApi } from "../../lib/api/luts";
import { LUT_NAME_MAX_LENGTH, type LutSummary } from "../../schemas/luts";
import type { Notifier } from "../notifier";
import { loadJson, saveJson } from "../settings";
import { createStore } from "../store";

export interface ActiveLut {
  id: string;
  name: string;
  lut: ParsedLut;
}

export interface OverlayState {
  settings: OverlaySettings;
  luts: LutSummary[];
  lutsLoaded: boolean;
  /** The selected LUT's parsed table, once fetched; null while none is selected or it failed. */
  active: ActiveLut | null;
  uploading: boolean;
}

/** The upload's validation outcome: a message for under the field, or nothing when it went through. */
export type UploadResult = { ok: true; lut: LutSummary } | { ok: false; error: string };

export class OverlayController {
  readonly store = createStore<OverlayState>({ settings: DEFAULT_OVERLAY_SETTINGS, luts: [], lutsLoaded: false, active: null, uploading: false });
  private client: ImageCoreClient | null = null;
  private started = false;
  /** Parsed tables by LUT id: re-selecting a LUT needs no second fetch. */
  private readonly parsed = new Map<string, ActiveLut>();
  private selecting = 0;

  constructor(private readonly notify: Notifier) {}

  /** The page's one image-core worker (parsing, the CPU renderer, gallery grading), started on first use. */
  imageCore(): ImageCoreClient {
    this.client ??= createImageCoreClient();
    return this.client;
  }

  /** Reads the stored settings and the LUT list (the server creates the built-in presets then). Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.store.set({ settings: sanitizeOverlaySettings(loadJson(OVERLAY_SETTINGS_KEY)) });
    void this.loadLuts();
    void this.refreshActive();
  }

  dispose(): void {
    this.client?.dispose();
    this.client = null;
  }

  async loadLuts(): Promise<void> {
    try {
      const luts = await lutsApi.list();
      this.store.set({ luts, lutsLoaded: true });
      const { lutId } = this.store.get().settings;
      // A stored choice whose LUT was deleted elsewhere falls back to none.
      if (lutId && !luts.some((l) => l.id === lutId)) this.update({ lutId: null });
    } catch (error) {
      console.warn("Failed to load LUTs", error);
      this.store.set({ lutsLoaded: true });
    }
  }

  update(patch: Partial<OverlaySettings>): void {
    const settings = sanitizeOverlaySettings({ ...this.store.get().settings, ...patch });
    this.store.set({ settings });
    saveJson(OVERLAY_SETTINGS_KEY, settings);
    if ("lutId" in patch || "lutEnabled" in patch) void this.refreshActive();
  }

  /** The parsed LUT for an id: from the cache, else fetched (GET /api/luts/{id}) and parsed in the worker. */
  async fetchLut(id: string): Promise<ActiveLut> {
    const cached = this.parsed.get(id);
    if (cached) return cached;
    const row = await lutsApi.get(id);
    const lut = await this.imageCore().parseCube(row.lutData, row.name);
    const active = { id, name: row.name, lut };
    this.parsed.set(id, active);
    return active;
  }

  /** Loads the selected LUT when one is chosen and enabled; the LUT is fetched only then. */
  private async refreshActive(): Promise<void> {
    const { settings, active } = this.store.get();
    const ticket = ++this.selecting;
    if (!lutActive(settings) || !settings.lutId) {
      if (active) this.store.set({ active: null });
      return;
    }
    if (active?.id === settings.lutId) return;
    try {
      const next = await this.fetchLut(settings.lutId);
      if (ticket === this.selecting) this.store.set({ active: next });
    } catch (error) {
      if (ticket !== this.selecting) return;
      this.store.set({ active: null });
      // A stored LUT that no longer parses is dropped and not applied (spec §5).
      if (error instanceof CubeParseError) console.warn("LUT parse failed", error.message, error.detail);
      else this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to fetch LUT"), variant: "destructive" });
    }
  }

  /**
   * Validates a picked file (.cube, parses) and uploads it; the new LUT becomes the selected one. A
   * refusal by the server is toasted with its problem `detail` and shown under the field.
   */
  async upload(file: File): Promise<UploadResult> {
    if (!/\.cube$/i.test(file.name)) return { ok: false, error: "Please upload a .cube LUT file" };
    this.store.set({ uploading: true });
    try {
      // A file over the limit (a 257³ cube is ~450 MB) is not read whole: its head names its size.
      const tooLong = file.size > MAX_CUBE_TEXT_LENGTH;
      const text = await (tooLong ? file.slice(0, CUBE_HEAD_LENGTH) : file).text();
      let parsed: ParsedLut;
      try {
        parsed = await this.imageCore().parseCube(text, file.name, tooLong ? file.size : undefined);
      } catch (error) {
        return { ok: false, error: error instanceof CubeParseError ? error.message : "Failed to parse LUT file" };
      }
      let created: LutSummary;
      try {
        // A TITLE longer than a LUT name may be is shortened, not refused.
        const name = parsed.name
          .slice(0, LUT_NAME_MAX_LENGTH)
          .replace(/[\ud800-\udbff]$/, "")
          .trim(); // no half of a surrogate pair
        created = await lutsApi.create({ name, lutData: text, size: parsed.size });
      } catch (error) {
        const detail = errorDetail(error, "Failed to upload LUT");
        this.notify.toast({ title: "Failed to upload LUT", description: detail, variant: "destructive" });
        return { ok: false, error: detail };
      }
      this.parsed.set(created.id, { id: created.id, name: created.name, lut: parsed });
      this.store.set((s) => ({ luts: [...s.luts, created] }));
      this.update({ lutId: created.id, lutEnabled: true });
      this.notify.toast({ title: "LUT uploaded successfully", description: created.name });
      return { ok: true, lut: created };
    } finally {
      this.store.set({ uploading: false });
    }
  }

  async remove(id: string): Promise<boolean> {
    const lut = this.store.get().luts.find((l) => l.id === id);
    if (!lut || lut.builtin) return false;
    try {
      await lutsApi.remove(id);
    } catch (error) {
      this.notify.toast({ title: "Failed to delete LUT", description: errorDetail(error, "Failed to delete LUT"), variant: "destructive" });
      return false;
    }
    this.parsed.delete(id);
    this.store.set((s) => ({ luts: s.luts.filter((l) => l.id !== id) }));
    if (this.store.get().settings.lutId === id) this.update({ lutId: null });
    this.notify.toast({ title: "LUT deleted successfully", description: lut.name });
    return true;
  }
}
