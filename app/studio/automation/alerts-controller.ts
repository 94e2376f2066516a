// The Automate tab's e-mail and SMS alerts as the studio engine holds them: the alert status (contacts, which
// channels the server can send), the rules, each contact's pending request, the new rule's errors, and the lines or
// zones a local-vision rule may watch on the camera picked. Framework-free; the alert components subscribe to `store`.
import type { alertsApi } from "../../lib/api/alerts";
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import type { localVisionApi } from "../../lib/api/local-vision";
import type { AlertChannel, AlertRule, AlertStatus } from "../../schemas/automation";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

export type AlertRuleFieldErrors = { object?: string; threshold?: string; targetId?: string; email?: string };

export interface ContactRequest {
  busy: boolean;
  error: string | null;
}

/** The lines or zones of one camera a local-vision rule may watch (`list` null while they load). */
export interface AlertTargets {
  cameraId: string;
  word: "line" | "zone";
  list: Array<{ id: string; name: string }> | null;
}

export interface AlertsState {
  /** Null until loaded (the block shows nothing before). */
  status: AlertStatus | null;
  rules: AlertRule[];
  /** The new rule's problem when no field shows what is wrong, or a deletion's. */
  error: string | null;
  fieldErrors: AlertRuleFieldErrors;
  contacts: Record<AlertChannel, ContactRequest>;
  targets: AlertTargets | null;
}

export type AlertsApi = Pick<typeof alertsApi, "status" | "rules" | "createRule" | "removeRule" | "startContact" | "verifyContact" | "removeContact">;
export type AlertTargetsApi = Pick<typeof localVisionApi, "lines" | "zones">;
export type NewAlertRule = Parameters<AlertsApi["createRule"]>[0];

const IDLE: ContactRequest = { busy: false, error: null };

export class AlertsController {
  readonly store = createStore<AlertsState>({ status: null, rules: [], error: null, fieldErrors: {}, contacts: { email: IDLE, sms: IDLE }, targets: null });

  constructor(
    private readonly api: AlertsApi,
    private readonly regionsApi: AlertTargetsApi,
    private readonly notify: Notifier,
  ) {}

  /** Reads the status and the rules afresh (the block calls it each time it shows). */
  async load(): Promise<void> {
    this.store.set({ status: null, error: null, fieldErrors: {}, contacts: { email: IDLE, sms: IDLE } });
    await Promise.all([
      this.api
        .status()
        .then((status) => this.store.set({ status }))
        .catch((e: unknown) => console.warn("Failed to load alerts", e)),
      this.api
        .rules()
        .then((rules) => this.store.set({ rules }))
        .catch((e: unknown) => console.warn("Failed to load alert rules", e)),
    ]);
  }

  /** Adds a rule; false when refused (field errors under their fields, else the problem's summary). */
  async addRule(rule: NewAlertRule): Promise<boolean> {
    this.store.set({ error: null, fieldErrors: {} });
    try {
      const created = await this.api.createRule(rule);
      this.store.set((state) => ({ rules: [...state.rules, created] }));
      return true;
    } catch (e) {
      const fields = problemFieldErrors(e);
      const shown: AlertRuleFieldErrors = { object: fields.object?.[0], threshold: fields.threshold?.[0], targetId: fields.targetId?.[0], email: fields.email?.[0] };
      // The problem's summary only when no field shows what is wrong.
      this.store.set({ fieldErrors: shown, ...(Object.values(shown).some(Boolean) ? {} : { error: errorDetail(e, "Failed to add the alert rule") }) });
      return false;
    }
  }

  clearFieldErrors(): void {
    this.store.set({ fieldErrors: {} });
  }

  async removeRule(ruleId: string): Promise<void> {
    try {
      await this.api.removeRule(ruleId);
      this.store.set((state) => ({ rules: state.rules.filter((r) => r.id !== ruleId) }));
    } catch (e) {
      this.store.set({ error: errorDetail(e, "Failed to delete the alert rule") });
    }
  }

  /** Sends a code to an address, confirms a code, or removes a contact; the new status replaces the old. */
  async contact(channel: AlertChannel, action: { start: string } | { verify: string } | "remove"): Promise<void> {
    const request = (patch: ContactRequest) => this.store.set((state) => ({ contacts: { ...state.contacts, [channel]: patch } }));
    request({ busy: true, error: null });
    try {
      const status = await (action === "remove"
        ? this.api.removeContact(channel)
        : "start" in action
          ? this.api.startContact({ channel, address: action.start })
          : this.api.verifyContact({ channel, code: action.verify }));
      this.store.set({ status });
      request(IDLE);
      if (action !== "remove") this.notify.toast({ title: "start" in action ? "Code sent" : "Verified" });
    } catch (e) {
      request({ busy: false, error: errorDetail(e, "Something went wrong") });
    }
  }

  /** Loads the lines or zones of the camera picked for a local-vision rule ("" camera: none to pick). */
  async loadTargets(cameraId: string, word: "line" | "zone"): Promise<void> {
    const targets: AlertTargets = { cameraId, word, list: null };
    this.store.set({ targets: cameraId ? targets : null });
    if (!cameraId) return;
    // Only the latest pick's answer is kept.
    const current = () => this.store.get().targets === targets;
    try {
      const list = await (word === "line" ? this.regionsApi.lines(cameraId) : this.regionsApi.zones(cameraId));
      if (current()) this.store.set({ targets: { ...targets, list } });
    } catch (e) {
      console.warn(`Failed to load the camera's ${word}s`, e);
      if (current()) this.store.set({ targets: { ...targets, list: [] } });
    }
  }
}
