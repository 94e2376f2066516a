// A per-key pace limit: calls on one key are spaced 1/rate apart, so the studio's loops (and several
// browser tabs) never trip the provider's per-key rate limit. It paces within this process; several app
// servers each keep their own pace, so run them with a share of the key's rate.
import { createHash } from "node:crypto";
import { sleep } from "./retry";

export class PaceQueueFull extends Error {
  constructor(readonly retryAfterMs: number) {
    super("Too many calls queued for this key");
    this.name = "PaceQueueFull";
  }
}

export interface PacerOptions {
  /** Calls per second per key; 0 turns pacing off. */
  ratePerSecond: number;
  /** A call that would wait longer than this is refused at once instead of queueing. */
  maxWaitMs: number;
  now?: () => number;
}

export class Pacer {
  /** The earliest time the next call on each key may start. Keys are hashed: no plain keys kept around. */
  private readonly nextSlot = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PacerOptions) {
    this.intervalMs = options.ratePerSecond > 0 ? 1000 / options.ratePerSecond : 0;
    this.now = options.now ?? Date.now;
  }

  /** Reserves the key's next slot and waits for it. */
  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    const wait = this.reserve(key);
    if (wait > 0) await sleep(wait, signal);
  }

  /** Books the next slot and returns how long to wait for it (throws when the queue is too long). */
  reserve(key: string): number {
    if (this.intervalMs === 0) return 0;
    const id = hashKey(key);
    const now = this.now();
    const slot = Math.max(now, this.nextSlot.get(id) ?? 0);
    const wait = slot - now;
    if (wait > this.options.maxWaitMs) throw new PaceQueueFull(wait);
    this.nextSlot.set(id, slot + this.intervalMs);
    if (this.nextSlot.size > 10_000) this.sweep(now);
    return wait;
  }

  /** The provider asked this key to back off (429 with Retry-After): later calls wait too, not just the one refused. */
  holdOff(key: string, ms: number): void {
    if (this.intervalMs === 0) return;
    const id = hashKey(key);
    const until = this.now() + ms;
    if ((this.nextSlot.get(id) ?? 0) < until) this.nextSlot.set(id, until);
  }

  private sweep(now: number): void {
    for (const [id, slot] of this.nextSlot) if (slot <= now) this.nextSlot.delete(id);
  }
}

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}
