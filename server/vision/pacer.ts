// The per-key pace limit and the fair queue in front of it. Slots are booked in a SlotBook shared by every
// app process (PostgreSQL in production), so N processes together keep to the rate; who gets the next slot
// is decided here, at the moment the slot comes: users waiting on a key take turns (round-robin), each
// user has caps on the shared key, and a loop call that would have to queue is refused at once instead,
// so a call a person asked for never waits behind loops. Clock and sleep are injected for tests.
import { createHash } from "node:crypto";
import { sleep as realSleep } from "./retry";

export type CallPriority = "interactive" | "loop";

/** Where slots are booked: the key's next slot is at most one interval after the one before. */
export interface SlotBook {
  /**
   * Books the key's next slot and returns how long until it. With `withinMs`, books only when the slot is at
   * most that far away; otherwise books nothing and answers `booked: false` with the wait it would have had.
   */
  book(keyHash: string, intervalMs: number, withinMs?: number): Promise<{ booked: boolean; waitMs: number }>;
  /** No slot before `ms` from now (the provider asked this key to back off). */
  holdOff(keyHash: string, ms: number): Promise<void>;
}

export class PaceRefused extends Error {
  constructor(readonly retryAfterMs: number) {
    super("The key is busy");
    this.name = "PaceRefused";
  }
}

export interface PacerOptions {
  /** Calls per second per key; 0 turns pacing (and the queue) off. */
  ratePerSecond: number;
  /** The queue of one key holds at most this much waiting (rate × this many calls). */
  maxWaitMs: number;
  /** On the shared key: a user's calls past their slot and not yet answered… */
  perUserInFlight: number;
  /** …and a user's calls waiting for a slot. Over either, a call is refused at once. */
  perUserWaiting: number;
  slots: SlotBook;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PaceRequest {
  key: string;
  userId: string;
  priority: CallPriority;
  /** The operator's shared key: the per-user caps apply. */
  shared: boolean;
  signal?: AbortSignal | undefined;
}

/** A granted call; release() once the provider answered (or failed), so the user's next call may go. */
export interface PaceTicket {
  release(): void;
}

interface Waiter {
  request: PaceRequest;
  resolve(ticket: PaceTicket): void;
  reject(error: unknown): void;
  detach(): void;
}

/** One key's state in this process. Map order of `waiting` is the round-robin order of users. */
interface Lane {
  hash: string;
  waiting: Map<string, Waiter[]>;
  queued: number;
  inFlight: Map<string, number>;
  dispatching: boolean;
}

const NO_TICKET: PaceTicket = { release() {} };

export class Pacer {
  private readonly lanes = new Map<string, Lane>();
  private readonly intervalMs: number;
  private readonly maxQueue: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: PacerOptions) {
    this.intervalMs = options.ratePerSecond > 0 ? 1000 / options.ratePerSecond : 0;
    this.maxQueue = Math.max(1, Math.floor(options.maxWaitMs / Math.max(1, this.intervalMs)));
    this.sleep = options.sleep ?? realSleep;
  }

  get enabled(): boolean {
    return this.intervalMs > 0;
  }

  /** Waits for a slot on the key (or throws PaceRefused at once). */
  async admit(request: PaceRequest): Promise<PaceTicket> {
    if (!this.enabled) return NO_TICKET;
    const lane = this.lane(request.key);
    const flying = lane.inFlight.get(request.userId) ?? 0;
    if (request.priority === "loop") return this.admitLoop(lane, request, flying);
    const mine = lane.waiting.get(request.userId)?.length ?? 0;
    if (lane.queued >= this.maxQueue || (request.shared && mine >= this.options.perUserWaiting)) {
      this.tidy(lane);
      throw new PaceRefused((lane.queued + 1) * this.intervalMs);
    }
    return new Promise<PaceTicket>((resolve, reject) => {
      const signal = request.signal;
      const onAbort = () => {
        this.remove(lane, waiter);
        reject(signal!.reason);
      };
      const waiter: Waiter = { request, resolve, reject, detach: () => signal?.removeEventListener("abort", onAbort) };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const list = lane.waiting.get(request.userId);
      if (list) list.push(waiter);
      else lane.waiting.set(request.userId, [waiter]);
      lane.queued++;
      void this.dispatch(lane);
    });
  }

  /** A slot for a further attempt of a call already admitted (a retry): paced, but not queued again. */
  async retrySlot(key: string, signal?: AbortSignal): Promise<void> {
    if (!this.enabled) return;
    const { waitMs } = await this.options.slots.book(hashKey(key), this.intervalMs);
    if (waitMs > 0) await this.sleep(waitMs, signal);
  }

  /** The provider said Retry-After: no call on this key before then, in any process. */
  async holdOff(key: string, ms: number): Promise<void> {
    if (this.enabled) await this.options.slots.holdOff(hashKey(key), ms);
  }

  /** A loop call goes only if nobody waits here and the key's next slot is at most one interval away. */
  private async admitLoop(lane: Lane, request: PaceRequest, flying: number): Promise<PaceTicket> {
    if (lane.queued > 0 || (request.shared && flying >= this.options.perUserInFlight)) {
      this.tidy(lane);
      throw new PaceRefused((lane.queued + 1) * this.intervalMs);
    }
    const ticket = this.ticket(lane, request.userId);
    try {
      const { booked, waitMs } = await this.options.slots.book(lane.hash, this.intervalMs, this.intervalMs);
      if (!booked) throw new PaceRefused(waitMs);
      if (waitMs > 0) await this.sleep(waitMs, request.signal);
      return ticket;
    } catch (error) {
      ticket.release();
      throw error;
    }
  }

  /** Books a slot while anyone eligible waits, and at each slot's time grants it to the next user in turn. */
  private async dispatch(lane: Lane): Promise<void> {
    if (lane.dispatching) return;
    lane.dispatching = true;
    try {
      while (this.pick(lane, false)) {
        try {
          const { waitMs } = await this.options.slots.book(lane.hash, this.intervalMs);
          if (waitMs > 0) await this.sleep(waitMs);
        } catch (error) {
          // The slot store failed (the database is away): everyone waiting hears it rather than hanging.
          for (const list of lane.waiting.values()) for (const waiter of [...list]) this.fail(lane, waiter, error);
          break;
        }
        const waiter = this.pick(lane, true);
        if (!waiter) continue; // everyone eligible left meanwhile: the slot goes unused
        waiter.detach();
        waiter.resolve(this.ticket(lane, waiter.request.userId));
      }
    } finally {
      lane.dispatching = false;
      this.tidy(lane);
    }
  }

  /** The first waiter of the first user in turn who is under their in-flight cap; `take` dequeues it. */
  private pick(lane: Lane, take: boolean): Waiter | undefined {
    for (const [userId, list] of lane.waiting) {
      const waiter = list[0]!;
      if (waiter.request.shared && (lane.inFlight.get(userId) ?? 0) >= this.options.perUserInFlight) continue;
      if (take) {
        list.shift();
        lane.queued--;
        // To the back of the round: the next slot goes to someone else who waits.
        lane.waiting.delete(userId);
        if (list.length) lane.waiting.set(userId, list);
      }
      return waiter;
    }
    return undefined;
  }

  private ticket(lane: Lane, userId: string): PaceTicket {
    lane.inFlight.set(userId, (lane.inFlight.get(userId) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (lane.inFlight.get(userId) ?? 1) - 1;
        if (left > 0) lane.inFlight.set(userId, left);
        else lane.inFlight.delete(userId);
        if (lane.queued > 0) void this.dispatch(lane);
        else this.tidy(lane);
      },
    };
  }

  private remove(lane: Lane, waiter: Waiter): void {
    const userId = waiter.request.userId;
    const list = lane.waiting.get(userId);
    const index = list?.indexOf(waiter) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    lane.queued--;
    if (!list.length) lane.waiting.delete(userId);
    waiter.detach();
    this.tidy(lane);
  }

  private fail(lane: Lane, waiter: Waiter, error: unknown): void {
    this.remove(lane, waiter);
    waiter.reject(error);
  }

  private lane(key: string): Lane {
    const hash = hashKey(key);
    let lane = this.lanes.get(hash);
    if (!lane) {
      lane = { hash, waiting: new Map(), queued: 0, inFlight: new Map(), dispatching: false };
      this.lanes.set(hash, lane);
    }
    return lane;
  }

  /** A key nobody waits on or calls with is forgotten (its slot lives on in the SlotBook). */
  private tidy(lane: Lane): void {
    if (!lane.queued && !lane.inFlight.size && !lane.dispatching) this.lanes.delete(lane.hash);
  }
}

/** Keys are only ever kept (here and in the database) as this hash. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

/** A SlotBook in this process's memory, on an injectable clock: for unit tests and a single process. */
export class MemorySlotBook implements SlotBook {
  private readonly next = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  async book(keyHash: string, intervalMs: number, withinMs?: number): Promise<{ booked: boolean; waitMs: number }> {
    const now = this.now();
    const slot = Math.max(now, this.next.get(keyHash) ?? 0);
    if (withinMs !== undefined && slot - now > withinMs) return { booked: false, waitMs: slot - now };
    this.next.set(keyHash, slot + intervalMs);
    return { booked: true, waitMs: slot - now };
  }

  async holdOff(keyHash: string, ms: number): Promise<void> {
    const until = this.now() + ms;
    if ((this.next.get(keyHash) ?? 0) < until) this.next.set(keyHash, until);
  }
}
