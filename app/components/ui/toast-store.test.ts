// The toast queue keeps one toast on screen, and removes a dismissed one after its delay.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissToast, getToasts, subscribeToasts, toast, TOAST_REMOVE_DELAY_MS } from "./toast-store";

describe("toast store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows only the newest toast and notifies subscribers", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToasts(listener);
    toast({ title: "First" });
    const second = toast({ title: "Login failed", description: "Invalid username or password", variant: "destructive" });
    expect(getToasts()).toEqual([{ id: second, open: true, title: "Login failed", description: "Invalid username or password", variant: "destructive" }]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it("closes a dismissed toast at once and removes it after the remove delay", () => {
    const id = toast({ title: "Bye" });
    dismissToast(id);
    expect(getToasts()).toEqual([expect.objectContaining({ id, open: false })]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toEqual([]);
  });
});
