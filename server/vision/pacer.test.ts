import { describe, expect, it } from "vitest";
import { PaceQueueFull, Pacer } from "./pacer";
import { backoffDelay, parseRetryAfter } from "./retry";

describe("Pacer", () => {
  it("spaces calls on one key 1/rate apart, and keys independently", () => {
    let now = 1_000;
    const pacer = new Pacer({ ratePerSecond: 2, maxWaitMs: 10_000, now: () => now });
    expect([pacer.reserve("a"), pacer.reserve("a"), pacer.reserve("a")]).toEqual([0, 500, 1000]);
    expect(pacer.reserve("b")).toBe(0);
    now += 2_000; // idle: the next call goes at once
    expect(pacer.reserve("a")).toBe(0);
  });

  it("refuses a call that would queue longer than the limit", () => {
    const pacer = new Pacer({ ratePerSecond: 2, maxWaitMs: 1_000, now: () => 0 });
    pacer.reserve("a");
    pacer.reserve("a");
    pacer.reserve("a");
    expect(() => pacer.reserve("a")).toThrow(PaceQueueFull);
  });

  it("holds a key back after the provider said Retry-After", () => {
    const pacer = new Pacer({ ratePerSecond: 2, maxWaitMs: 10_000, now: () => 0 });
    pacer.holdOff("a", 3_000);
    expect(pacer.reserve("a")).toBe(3_000);
    expect(pacer.reserve("other")).toBe(0);
  });

  it("does nothing at rate 0", () => {
    const pacer = new Pacer({ ratePerSecond: 0, maxWaitMs: 0, now: () => 0 });
    for (let i = 0; i < 100; i++) expect(pacer.reserve("a")).toBe(0);
  });
});

describe("retry timing", () => {
  it("full jitter stays within base·2^attempt and the cap", () => {
    const policy = { baseMs: 250, capMs: 4_000 };
    expect(backoffDelay(0, policy, () => 0.999)).toBe(249);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1_000);
    expect(backoffDelay(10, policy, () => 0.999)).toBeLessThan(4_000);
    expect(backoffDelay(2, policy, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2_000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
