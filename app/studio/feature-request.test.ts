// The feature request's controller: a request is sent trimmed and thanked for, a blank one is not sent, and a refusal
// is said in a toast; pending only while it is under way.
import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/api/errors";
import { FeatureRequestController, type FeatureRequestsApi } from "./feature-request";
import type { Notifier } from "./notifier";

function harness(refuse = false) {
  const sent: string[][] = [];
  const toasts: string[] = [];
  const pendingSeen: boolean[] = [];
  const api = {
    create: async (title: string, description: string) => {
      pendingSeen.push(controller.store.get().pending);
      if (refuse) throw new ApiError(503, JSON.stringify({ detail: "Busy" }), "");
      sent.push([title, description]);
    },
  } as unknown as FeatureRequestsApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}: ${t.description}`), alert: () => undefined };
  const controller = new FeatureRequestController(api, notify);
  return { controller, sent, toasts, pendingSeen };
}

describe("FeatureRequestController", () => {
  it("sends the trimmed request and thanks for it", async () => {
    const { controller, sent, toasts, pendingSeen } = harness();
    expect(await controller.submit("  Dark mode ", " Please ")).toBe(true);
    expect(sent).toEqual([["Dark mode", "Please"]]);
    expect(toasts).toEqual(["Request Submitted: Thank you for your feature suggestion!"]);
    expect(pendingSeen).toEqual([true]);
    expect(controller.store.get().pending).toBe(false);
  });

  it("sends nothing without a title and a description", async () => {
    const { controller, sent } = harness();
    expect(await controller.submit("Dark mode", "  ")).toBe(false);
    expect(sent).toEqual([]);
  });

  it("says a refused request in a toast", async () => {
    const { controller, toasts } = harness(true);
    expect(await controller.submit("Dark mode", "Please")).toBe(false);
    expect(toasts).toEqual(["Error: Failed to submit feature request"]);
    expect(controller.store.get().pending).toBe(false);
  });
});
