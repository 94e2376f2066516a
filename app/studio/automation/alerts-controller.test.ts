// The alerts block's controller against an in-memory server: status and rules load, a rule is added and deleted, a
// refused rule shows its field errors (or the problem's summary when no field names it), contacts take the new status,
// and only the latest camera's lines or zones are offered.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { AlertRule, AlertStatus } from "../../schemas/automation";
import type { Notifier } from "../notifier";
import { AlertsController, type AlertsApi, type AlertTargetsApi, type NewAlertRule } from "./alerts-controller";

const problem = (status: number, body: object) => new ApiError(status, JSON.stringify(body), "");
const RULE: NewAlertRule = { kind: "detection", object: "person", threshold: null, targetId: null, email: true, sms: false, cooldownMinutes: 5 };

function harness() {
  let status: AlertStatus = { emailAvailable: true, smsAvailable: false, contacts: [] };
  const rules: AlertRule[] = [];
  let refuse: ApiError | null = null;
  const toasts: string[] = [];
  const regionAnswers: Array<() => void> = [];
  const api = {
    status: async () => status,
    rules: async () => [...rules],
    createRule: async (body: NewAlertRule) => {
      if (refuse) throw refuse;
      const rule = { ...body, id: `rule-${rules.length + 1}`, target: null } as AlertRule;
      rules.push(rule);
      return rule;
    },
    removeRule: async (id: string) => {
      if (refuse) throw refuse;
      rules.splice(
        rules.findIndex((r) => r.id === id),
        1,
      );
    },
    startContact: async ({ address }: { address: string }) => {
      if (refuse) throw refuse;
      return (status = { ...status, contacts: [{ channel: "email", address, verified: false, pending: true }] } as AlertStatus);
    },
    verifyContact: async () => (status = { ...status, contacts: status.contacts.map((c) => ({ ...c, verified: true, pending: false })) }),
    removeContact: async () => (status = { ...status, contacts: [] }),
  } as unknown as AlertsApi;
  // Each camera's lines answer when the test says.
  const regions = {
    lines: (cameraId: string) => new Promise((resolve) => regionAnswers.push(() => resolve([{ id: `${cameraId}-door`, name: `Door of ${cameraId}` }]))),
    zones: async () => [],
  } as unknown as AlertTargetsApi;
  const notify: Notifier = { toast: (t) => void toasts.push(t.title), alert: () => undefined };
  return {
    controller: new AlertsController(api, regions, notify),
    toasts,
    regionAnswers,
    refuseWith: (e: ApiError | null) => (refuse = e),
  };
}

describe("AlertsController", () => {
  it("loads the status and rules, adds a rule and deletes it", async () => {
    const { controller } = harness();
    await controller.load();
    expect(controller.store.get().status).toEqual({ emailAvailable: true, smsAvailable: false, contacts: [] });
    expect(await controller.addRule(RULE)).toBe(true);
    expect(controller.store.get().rules.map((r) => r.object)).toEqual(["person"]);
    await controller.removeRule("rule-1");
    expect(controller.store.get().rules).toEqual([]);
  });

  it("shows a refused rule's field errors, or the problem's summary when no field names it", async () => {
    const { controller, refuseWith } = harness();
    await controller.load();
    refuseWith(problem(422, { detail: "Invalid rule", errors: { email: ["Confirm your e-mail address first"] } }));
    expect(await controller.addRule(RULE)).toBe(false);
    expect(controller.store.get()).toMatchObject({ fieldErrors: { email: "Confirm your e-mail address first" }, error: null, rules: [] });
    refuseWith(problem(409, { detail: "You have 20 alert rules, the most there can be" }));
    expect(await controller.addRule(RULE)).toBe(false);
    expect(controller.store.get()).toMatchObject({ fieldErrors: {}, error: "You have 20 alert rules, the most there can be" });
    await controller.removeRule("rule-9");
    expect(controller.store.get().error).toBe("You have 20 alert rules, the most there can be");
  });

  it("takes the contact's new status, says a code was sent, and shows a refusal under the contact", async () => {
    const { controller, toasts, refuseWith } = harness();
    await controller.load();
    await controller.contact("email", { start: "me@example.com" });
    expect(controller.store.get().status?.contacts).toEqual([{ channel: "email", address: "me@example.com", verified: false, pending: true }]);
    expect(toasts).toEqual(["Code sent"]);
    await controller.contact("email", { verify: "123456" });
    expect(controller.store.get().status?.contacts[0]?.verified).toBe(true);
    refuseWith(problem(429, { detail: "Too many codes: try again in an hour" }));
    await controller.contact("email", { start: "me@example.com" });
    expect(controller.store.get().contacts.email).toEqual({ busy: false, error: "Too many codes: try again in an hour" });
    expect(controller.store.get().contacts.sms).toEqual({ busy: false, error: null });
  });

  it("offers only the latest camera's lines when answers come out of order", async () => {
    const { controller, regionAnswers } = harness();
    const first = controller.loadTargets("cam-a", "line");
    const second = controller.loadTargets("cam-b", "line");
    regionAnswers[1]!();
    await second;
    regionAnswers[0]!();
    await first;
    expect(controller.store.get().targets).toEqual({ cameraId: "cam-b", word: "line", list: [{ id: "cam-b-door", name: "Door of cam-b" }] });
    await controller.loadTargets("", "line");
    expect(controller.store.get().targets).toBeNull();
  });
});
