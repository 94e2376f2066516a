import { describe, expect, it } from "vitest";
import { MemorySlotBook, PaceRefused, Pacer, type PaceRequest, type PaceTicket } from "./pacer";
import { backoffDelay, parseRetryAfter } from "./retry";

/** Time that moves only when the test says so; sleeps end in order as it passes them. */
class FakeClock {
  now = 0;
  private timers: Array<{ at: number; resolve: () => void }> = [];
  readonly sleep = (ms: number) => new Promise<void>((resolve) => this.timers.push({ at: this.now + ms, resolve }));

  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.now = Math.max(this.now, next.at);
      next.resolve();
    }
    this.now = target;
    await settle();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(options: { rate?: number; maxWaitMs?: number; inFlight?: number; waiting?: number } = {}, clock = new FakeClock(), slots = new MemorySlotBook(() => clock.now)) {
  const pacer = new Pacer({
    ratePerSecond: options.rate ?? 2,
    maxWaitMs: options.maxWaitMs ?? 10_000,
    perUserInFlight: options.inFlight ?? 3,
    perUserWaiting: options.waiting ?? 4,
    slots,
    sleep: clock.sleep,
  });
  /** Every grant, in order: who and when. */
  const grants: Array<{ user: string; at: number; ticket: PaceTicket }> = [];
  const refusals: Array<{ user: string; retryAfterMs: number }> = [];
  const call = (user: string, more: Partial<PaceRequest> = {}) =>
    pacer.admit({ key: "shared", userId: user, priority: "interactive", shared: true, ...more }).then(
      (ticket) => {
        grants.push({ user, at: clock.now, ticket });
        return ticket;
      },
      (error: unknown) => {
        if (error instanceof PaceRefused) refusals.push({ user, retryAfterMs: error.retryAfterMs });
        else throw error;
      },
    );
  return { pacer, clock, slots, grants, refusals, call };
}

describe("Pacer", () => {
  it("grants one key's calls 1/rate apart, and other keys independently", async () => {
    const { grants, call, clock } = setup();
    for (let i = 0; i < 3; i++) void call("a", { shared: false });
    void call("b", { key: "another key", shared: false });
    await clock.advance(5_000);
    expect(grants.map((g) => [g.user, g.at])).toEqual([
      ["a", 0],
      ["b", 0],
      ["a", 500],
      ["a", 1000],
    ]);
  });

  it("takes users in turn, so one user's many calls do not starve the others", async () => {
    const { grants, call, clock } = setup({ inFlight: 10, waiting: 10 });
    for (let i = 0; i < 8; i++) void call("flood");
    for (const user of ["b", "c", "d", "e"]) for (let i = 0; i < 2; i++) void call(user);
    await clock.advance(2_600); // 6 slots
    expect(grants.map((g) => g.user)).toEqual(["flood", "b", "c", "d", "e", "flood"]);
    await clock.advance(10_000);
    expect(grants).toHaveLength(16);
    // Everyone else's second call came before the flood's third.
    const thirdOfFlood = grants.filter((g) => g.user === "flood")[2]!;
    for (const user of ["b", "c", "d", "e"]) expect(grants.filter((g) => g.user === user).every((g) => g.at < thirdOfFlood.at)).toBe(true);
  });

  it("caps what one user may wait for and have in flight on the shared key", async () => {
    const { grants, refusals, call, clock } = setup({ inFlight: 2, waiting: 3 });
    const first = call("u");
    await clock.advance(0);
    for (let i = 0; i < 5; i++) void call("u");
    await clock.advance(0);
    // The first is granted at once; of the other five, three may wait and two are refused.
    expect(refusals.map((r) => r.user)).toEqual(["u", "u"]);
    await clock.advance(10_000);
    expect(grants).toHaveLength(2); // two in flight: the third waits for one of them to finish
    (await first)!.release();
    await clock.advance(500);
    expect(grants).toHaveLength(3);
    // Not on the user's own key: only the key's queue bounds them.
    const own = setup({ inFlight: 2, waiting: 3 });
    for (let i = 0; i < 6; i++) void own.call("u", { shared: false });
    await own.clock.advance(10_000);
    expect(own.grants).toHaveLength(6);
    expect(own.refusals).toHaveLength(0);
  });

  it("refuses a call once the key's queue holds maxWait of calls, saying when to come back", async () => {
    const { refusals, call, clock } = setup({ maxWaitMs: 2_000, inFlight: 100, waiting: 100 });
    void call("user0");
    await clock.advance(0);
    for (let i = 1; i < 6; i++) void call(`user${i}`);
    await clock.advance(0);
    // One is granted at once, four (2 s at 2/s) wait, the sixth is refused.
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.retryAfterMs).toBe(2_500);
  });

  it("never queues a loop call: it goes when the key is free, else it is refused at once", async () => {
    const { grants, refusals, call, clock } = setup();
    void call("a", { priority: "loop" });
    await clock.advance(0);
    expect(grants.map((g) => g.user)).toEqual(["a"]);
    // A person's calls wait: a loop call now would queue behind them, so it is refused.
    void call("b");
    void call("b");
    await clock.advance(0);
    void call("a", { priority: "loop" });
    await clock.advance(0);
    expect(refusals.map((r) => r.user)).toEqual(["a"]);
    await clock.advance(2_000);
    expect(grants.map((g) => g.user)).toEqual(["a", "b", "b"]);
    // Idle again: a loop call takes the next slot.
    void call("a", { priority: "loop" });
    await clock.advance(500);
    expect(grants.map((g) => g.user)).toEqual(["a", "b", "b", "a"]);
  });

  it("puts a person's call ahead of the loops of the same user", async () => {
    const { grants, call, clock } = setup();
    // Two loops tick together: the second waits at most one slot; the assistant's call is next after them.
    void call("u", { priority: "loop" });
    void call("u", { priority: "loop" });
    void call("u", { priority: "loop" }); // would be two slots away: refused
    await clock.advance(0);
    void call("u");
    await clock.advance(5_000);
    expect(grants.map((g) => [g.at])).toEqual([[0], [500], [1000]]);
  });

  it("holds N processes sharing one slot book to the rate together", async () => {
    const clock = new FakeClock();
    const slots = new MemorySlotBook(() => clock.now);
    const one = setup({}, clock, slots);
    const two = setup({}, clock, slots);
    for (let i = 0; i < 4; i++) {
      void one.call(`one${i}`);
      void two.call(`two${i}`);
    }
    await clock.advance(10_000);
    const times = [...one.grants, ...two.grants].map((g) => g.at).sort((a, b) => a - b);
    expect(times).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000, 3500]);
  });

  it("lets a waiting call go when its caller leaves, and the next one takes the slot", async () => {
    const { grants, call, clock } = setup();
    const left = new AbortController();
    void call("a");
    const abandoned = call("b", { signal: left.signal }).catch((error: unknown) => error);
    void call("c");
    await clock.advance(0);
    left.abort(new Error("gone"));
    expect(await abandoned).toMatchObject({ message: "gone" });
    await clock.advance(1_000);
    expect(grants.map((g) => [g.user, g.at])).toEqual([
      ["a", 0],
      ["c", 500],
    ]);
  });

  it("holds a key back after the provider said Retry-After", async () => {
    const { pacer, grants, call, clock } = setup();
    await pacer.holdOff("shared", 3_000);
    void call("a");
    await clock.advance(5_000);
    expect(grants[0]!.at).toBe(3_000);
  });

  it("does nothing at rate 0", async () => {
    const { grants, call, clock } = setup({ rate: 0 });
    for (let i = 0; i < 100; i++) void call("a");
    await clock.advance(0);
    expect(grants).toHaveLength(100);
    expect(grants.every((g) => g.at === 0)).toBe(true);
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
