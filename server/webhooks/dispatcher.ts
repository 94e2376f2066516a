// The worker side of the webhook outbox. A delivery row is written with its event (and a wake-up job in the
// same statement); a deliver_webhooks job drains every due row in batches. A batch is one transaction: it locks
// up to WEBHOOK_CONCURRENCY × ROUNDS_PER_BATCH (16) due rows with FOR UPDATE SKIP LOCKED (so several processes share the work and
// never hold the same row), POSTs them, writes their outcomes in one statement and commits. The lock is the claim:
// no write per row to take it or give it back, and it ends with the transaction, also when the process dies.
//
// Guarantees: a row leaves the due set only by an outcome committed after its POST (at-least-once: a process
// that dies between a receiver's 2xx and its batch's commit leaves that row to be sent again with the same
// webhook-id, the receiver's dedupe key); a dead process's rows are unlocked at once and taken by any other.
// Each destination (a user's endpoint) has at most WEBHOOK_CONCURRENCY POSTs in flight; a batch stops starting
// rows after HAND_BACK_MS and hands the rest back, so a slow receiver holds neither its batch nor others'.
import type { DB } from "#db/index";
import { wakeDeliveriesAt } from "../jobs/queue";
import { logger } from "../logger";
import { config } from "../config";
import type { AddressPolicy } from "../net/address-policy";
import { attemptDelivery, judgeFailure, webhookPolicy } from "./delivery";
import { recordWebhookFailures } from "../timeline/record";
import * as q from "./queries";
import { getOrCreateSecret, openSecret } from "./secret";

/** Rows per batch, in rounds of a destination's POSTs: enough to pay for a transaction, few enough to commit often. */
const ROUNDS_PER_BATCH = 16;

/**
 * Rows queued ahead, in batches: the next claim goes out while this many are still waiting for a slot, since a claim
 * takes a few round trips and a busy machine makes each of them slow.
 */
const BATCHES_AHEAD = 2;

/** A destination whose oldest waiting row has waited this long is slow: claims skip it, and others' rows go first. */
const STALLED_MS = 1_000;

/**
 * A batch starts no row after this: the rest go back at its commit. Anything that must change a claimed row (deleting
 * the account) waits for the batch, so a batch lasts at most this plus one POST's WEBHOOK_TIMEOUT_MS.
 */
const HAND_BACK_MS = 2_000;

/**
 * After a drain that left rows other processes hold, look again this soon (their process may have died). The process
 * looks again itself, on a timer: a wake-up job could be taken by the very process holding the rows, whose running
 * drain absorbs it, and die with it, leaving the rows to the per-minute sweep.
 */
export const RECHECK_MS = 5_000;

/** A claimed row on its way: which batch holds its lock. */
interface Entry {
  row: q.Claimed;
  batch: Batch;
  queuedAt: number;
}

/** One transaction's rows: it commits once each of them is settled (an outcome) or handed back (none). */
class Batch {
  readonly outcomes: q.Outcome[] = [];
  readonly wakes: Date[] = [];
  handedBack = 0;
  private unsettled = 0;
  private resolveSettled!: () => void;
  readonly settled = new Promise<void>((resolve) => (this.resolveSettled = resolve));

  hold(rows: number): void {
    this.unsettled = rows;
    if (rows === 0) this.resolveSettled();
  }

  settle(outcome: q.Outcome | null): void {
    if (outcome) {
      this.outcomes.push(outcome);
      if (outcome.nextAttemptAt) this.wakes.push(outcome.nextAttemptAt);
    } else this.handedBack++;
    if (--this.unsettled === 0) this.resolveSettled();
  }
}

/** A user's endpoint: its POSTs in flight and the rows waiting for one of its slots. */
interface Destination {
  inFlight: number;
  waiting: Entry[];
}

function stalled(destination: Destination, now: number): boolean {
  const oldest = destination.waiting[0];
  return oldest !== undefined && now - oldest.queuedAt > STALLED_MS;
}

let stopping = false;
/** This process's look-again timer (see RECHECK_MS). */
let recheck: ReturnType<typeof setTimeout> | null = null;
let active: Drain | null = null;
let activeDone: Promise<void> | null = null;

class Drain {
  private readonly perDestination = config().webhooks.concurrency;
  private readonly batchSize = this.perDestination * ROUNDS_PER_BATCH;
  /** Open batches hold a pooled connection each (server/automation/tasks.ts sizes the pool); failures need one too. */
  private readonly maxBatches = Math.max(2, Math.min(this.perDestination, 8) - 2);
  private readonly policy: AddressPolicy = webhookPolicy();
  private readonly destinations = new Map<string, Destination>();
  private readonly sideWrites: Promise<unknown>[] = [];
  private openBatches = 0;
  private claiming = false;
  /** A claim may find rows: false after one came back short, until a wake-up, a hand-back or a queue drains. */
  private claimable = true;
  /** Counts what makes claimable true, so a claim that comes back short after one of them does not undo it. */
  private reasons = 0;
  private error: unknown = null;
  private ended!: () => void;
  private readonly end = new Promise<void>((resolve) => (this.ended = resolve));
  finishing = false;
  /** Users whose webhook this drain switched off, and why: their claimed rows are cancelled, not sent. */
  private readonly switchedOff = new Map<string, string>();
  /** Users with a failure run on record, as this drain last left it. */
  private readonly failing = new Map<string, boolean>();

  constructor(private readonly db: DB) {}

  /** A new wake-up while running: rows may have been written after the last claim looked. */
  rewake(): void {
    this.mayClaim();
    this.next();
  }

  private mayClaim(): void {
    this.reasons++;
    this.claimable = true;
  }

  /** Stops starting POSTs: waiting rows go back with their batch's commit; POSTs in flight finish. */
  stop(): void {
    for (const destination of this.destinations.values()) this.handBack(destination.waiting.splice(0));
    this.next();
  }

  async run(): Promise<void> {
    this.next();
    await this.end;
    const writes = await Promise.allSettled(this.sideWrites);
    if (this.error !== null) throw this.error;
    const failure = writes.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failure) throw failure.reason;
    // Rows still due now are another process's (or arrived just now, with their own wake-up): look again soon.
    if (!stopping && (await q.anyDue(this.db))) recheckSoon(this.db);
  }

  private get halted(): boolean {
    return stopping || this.error !== null;
  }

  /** Claims another batch when there is room and too little work queued, or ends the drain when nothing is left. */
  private next(): void {
    if (this.finishing) return;
    if (!this.claiming && this.openBatches === 0 && (this.halted || !this.claimable)) {
      this.finishing = true; // in the same tick as the check, so no wake-up falls in between
      this.ended();
      return;
    }
    if (this.claiming || this.halted || !this.claimable || this.openBatches >= this.maxBatches) return;
    if (this.ready() >= this.batchSize * BATCHES_AHEAD) return;
    this.claim();
  }

  /** Rows waiting for destinations that are not stalled: what keeps the slots busy while a claim is out. */
  private ready(): number {
    let rows = 0;
    const now = performance.now();
    for (const destination of this.destinations.values()) if (!stalled(destination, now)) rows += destination.waiting.length;
    return rows;
  }

  private claim(): void {
    const reasonsBefore = this.reasons;
    // Stalled destinations get no more rows now; when one moves again, a claim looks again.
    const now = performance.now();
    const slowUsers = [...this.destinations].filter(([, d]) => stalled(d, now)).map(([user]) => user);
    const batch = new Batch();
    this.claiming = true;
    this.openBatches++;
    this.db
      .transaction()
      .execute(async (trx) => {
        let rows: q.Claimed[];
        try {
          rows = await q.lockDue(trx, this.batchSize, slowUsers);
        } finally {
          this.claiming = false;
        }
        if (rows.length < this.batchSize && reasonsBefore === this.reasons) this.claimable = false;
        batch.hold(rows.length);
        // Rows not started by then go back: their destination is slow, and the batch holds its other rows' outcomes.
        const handBackTimer = setTimeout(() => this.handBack(this.removeWaiting(batch)), HAND_BACK_MS);
        const queuedAt = performance.now();
        for (const row of rows) this.enqueue({ row, batch, queuedAt });
        this.next(); // the next batch is claimed while this one is sent
        await batch.settled;
        clearTimeout(handBackTimer);
        await q.writeOutcomes(trx, batch.outcomes);
        await recordGivenUp(trx, rows, batch.outcomes);
        await wakeDeliveriesAt(trx, batch.wakes);
      })
      .catch((error: unknown) => {
        this.error ??= error; // rolled back: its rows stay due; the job fails and graphile-worker retries it
        this.stop();
      })
      .finally(() => {
        this.openBatches--;
        if (batch.handedBack > 0 && !this.halted) this.mayClaim();
        this.next();
      });
  }

  private enqueue(entry: Entry): void {
    let destination = this.destinations.get(entry.row.user_id);
    if (!destination) this.destinations.set(entry.row.user_id, (destination = { inFlight: 0, waiting: [] }));
    destination.waiting.push(entry);
    if (this.halted) this.handBack(destination.waiting.splice(0));
    else this.pump(entry.row.user_id, destination);
  }

  private pump(user: string, destination: Destination): void {
    while (destination.inFlight < this.perDestination && destination.waiting.length > 0 && !this.halted) {
      const entry = destination.waiting.shift()!;
      destination.inFlight++;
      void this.deliver(entry)
        .then(
          (outcome) => entry.batch.settle(outcome),
          (error: unknown) => {
            this.error ??= error;
            entry.batch.settle(null);
            this.stop();
          },
        )
        .finally(() => {
          const wasStalled = stalled(destination, performance.now());
          destination.inFlight--;
          this.pump(user, destination);
          if (destination.inFlight === 0 && destination.waiting.length === 0) this.destinations.delete(user);
          else if (wasStalled && !stalled(destination, performance.now())) this.mayClaim();
          this.next();
        });
    }
  }

  private handBack(entries: Entry[]): void {
    for (const entry of entries) entry.batch.settle(null);
  }

  private removeWaiting(batch: Batch): Entry[] {
    const removed: Entry[] = [];
    for (const destination of this.destinations.values()) {
      const kept = destination.waiting.filter((entry) => entry.batch !== batch || (removed.push(entry), false));
      destination.waiting.splice(0, destination.waiting.length, ...kept);
    }
    return removed;
  }

  /** One row's attempt; resolves with its outcome, or null when the row goes back untried. */
  private async deliver({ row }: Entry): Promise<q.Outcome | null> {
    const attempt = row.attempts + 1;
    const offReason = this.switchedOff.get(row.user_id) ?? (row.webhook_enabled && row.webhook_url ? null : row.disabled_reason);
    if (offReason !== null || !row.webhook_enabled || !row.webhook_url) {
      const error = offReason ? `Webhook switched off: ${offReason}` : "Webhook turned off before delivery";
      return { id: row.id, attempt, status: "cancelled", responseStatus: null, error, nextAttemptAt: null };
    }
    const secret = (row.secret_ciphertext && openSecret(row.secret_ciphertext, row.user_id)) || (await this.newSecret(row.user_id));
    if (secret === null) return null;
    const result = await attemptDelivery(row.webhook_url, secret, row.id, row.body, this.policy);
    if (result.ok) {
      // The endpoint row is shared by all of a user's deliveries: write it only when a failure run ends.
      if (this.failing.get(row.user_id) ?? Boolean(row.failure_streak)) {
        this.failing.set(row.user_id, false);
        this.sideWrites.push(q.endFailureRun(this.db, row.user_id));
      }
      return { id: row.id, attempt, status: "delivered", responseStatus: result.status, error: null, nextAttemptAt: null };
    }
    this.failing.set(row.user_id, true);
    const verdict = await judgeFailure(this.db, row.user_id, attempt, result);
    if (verdict.disableReason) this.switchedOff.set(row.user_id, verdict.disableReason);
    return { id: row.id, attempt, status: verdict.status, responseStatus: result.status, error: result.message, nextAttemptAt: verdict.nextAttemptAt };
  }

  /** A user's first secret, made now; null when their endpoint row stays locked (their account being deleted). */
  private async newSecret(user: string): Promise<string | null> {
    try {
      return await q.withShortLockWait(this.db, (trx) => getOrCreateSecret(trx, user));
    } catch (error) {
      if (q.isLockTimeout(error)) return null;
      throw error;
    }
  }
}

/**
 * Deliveries the batch gave up on for good go on their users' timelines, in the batch's transaction (with their
 * outcome). Only a failure reads its payload again, for the event type it carried.
 */
async function recordGivenUp(trx: DB, rows: readonly q.Claimed[], outcomes: readonly q.Outcome[]): Promise<void> {
  const failed = outcomes.filter((outcome) => outcome.status === "failed");
  if (failed.length === 0) return;
  const byId = new Map(rows.map((row) => [row.id, row]));
  await recordWebhookFailures(
    trx,
    failed.flatMap((outcome) => {
      const row = byId.get(outcome.id);
      if (!row) return [];
      const eventType = (JSON.parse(row.body) as { type?: unknown }).type;
      return [
        {
          userId: row.user_id,
          deliveryId: row.id,
          eventType: typeof eventType === "string" ? eventType : "event",
          attempts: outcome.attempt,
          responseStatus: outcome.responseStatus,
          error: outcome.error,
        },
      ];
    }),
  );
}

/**
 * The deliver_webhooks task: sends every due delivery, returning once their outcomes are committed. One
 * drain runs per process. A wake-up that arrives meanwhile hands its rows to it and ends at once, so waiting
 * wake-ups never hold the queue's slots that alerts also need; should the process die, its locks go with it
 * and another process's drain (its recheck, the per-minute sweep, or its next wake-up) takes the rows.
 */
export async function drainDeliveries(db: DB): Promise<void> {
  if (active && !active.finishing) {
    active.rewake();
    return;
  }
  if (activeDone) await activeDone.catch(() => {});
  if (active) return drainDeliveries(db); // another wake-up started the next drain first
  const drain = new Drain(db);
  active = drain;
  activeDone = drain.run().finally(() => {
    if (active === drain) {
      active = null;
      activeDone = null;
    }
  });
  return activeDone;
}

/** Drains again in RECHECK_MS, in this process (one timer at a time). */
function recheckSoon(db: DB): void {
  if (recheck || stopping) return;
  recheck = setTimeout(() => {
    recheck = null;
    if (!stopping) drainDeliveries(db).catch((error: unknown) => logger.warn({ err: error }, "webhook deliveries: a drain failed; the next wake-up or the sweep retries"));
  }, RECHECK_MS);
  recheck.unref();
}

/** Stops claiming (rows not yet started go back at once) so a graceful shutdown is quick; in-flight POSTs finish. */
export function stopDeliveries(): void {
  stopping = true;
  if (recheck) clearTimeout(recheck);
  recheck = null;
  active?.stop();
}

export function resumeDeliveries(): void {
  stopping = false;
}
