// Which AI failures reach people (once) and which are only logged.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api/errors";
import { SHARED_QUOTA_USED_UP, VISION_PROBLEM } from "../../schemas/vision";
import type { ToastInput } from "../../components/ui/toast-store";
import { AiFailureNotices } from "./failure-notices";

function problem(status: number, type: string, detail: string): ApiError {
  return new ApiError(status, JSON.stringify({ type, title: "x", status, detail }), "x");
}

function harness() {
  const toasts: ToastInput[] = [];
  const notices = new AiFailureNotices({ toast: (t) => toasts.push(t), alert: () => {} });
  return { toasts, notices };
}

afterEach(() => vi.restoreAllMocks());

describe("AiFailureNotices", () => {
  it("shows the used-up quota once however many frames fail, and keeps it readable", () => {
    const { toasts, notices } = harness();
    for (let i = 0; i < 5; i++) notices.report("Caption", problem(402, VISION_PROBLEM.freeCallsUsedUp, SHARED_QUOTA_USED_UP));
    notices.report("Box detection", problem(402, VISION_PROBLEM.freeCallsUsedUp, SHARED_QUOTA_USED_UP));
    expect(toasts).toEqual([{ title: "Free AI calls used up", description: SHARED_QUOTA_USED_UP, variant: "destructive" }]);
    expect(notices.store.get().current).toMatchObject({ type: VISION_PROBLEM.freeCallsUsedUp, message: SHARED_QUOTA_USED_UP });
  });

  it("shows each kind once, and again after a success in between", () => {
    const { toasts, notices } = harness();
    notices.report("Caption", problem(429, VISION_PROBLEM.rateLimited, "slow down"));
    notices.report("Caption", problem(400, VISION_PROBLEM.keyRejected, "bad key"));
    notices.report("Caption", problem(429, VISION_PROBLEM.rateLimited, "slow down"));
    expect(toasts.map((t) => t.title)).toEqual(["AI is being rate-limited", "API key rejected"]);
    notices.succeeded();
    expect(notices.store.get().current).toBeNull();
    notices.report("Caption", problem(429, VISION_PROBLEM.rateLimited, "slow down"));
    expect(toasts).toHaveLength(3);
  });

  it("only logs other failures, and ignores aborted calls", () => {
    const { toasts, notices } = harness();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    notices.report("Caption", problem(502, "about:blank", "Moondream is unavailable right now"));
    notices.report("Caption", new TypeError("Failed to fetch"));
    notices.report("Caption", new DOMException("stopped", "AbortError"));
    expect(toasts).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(notices.store.get().current).toBeNull();
  });
});
