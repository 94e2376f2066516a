// The worker side of the webhook outbox. A delivery row is written with its event (and a wake-up job in the
// same statement); a deliver_webhooks job drains every due row: it claims a batch with FOR UPDATE SKIP LOCKED
// (several app servers share the work), holds each row for a lease, sends WEBHOOK_CONCURRENCY at a time and
// writes the outcomes in groups. Per event that leaves one HTTP POST and a share of two queries, where one
// graphile-worker job per event cost a job fetch, a read, a write and a job completion.
//
// Guarantees: a row leaves the due set only by an outcome written after its POST (at-least-once; the
// webhook-id is the receiver's dedupe key); a worker that dies leaves leases that lapse, after which any
// worker claims the rows again (the per-minute sweep and the start-up wake-up find them).
import type { DB } from "#db/index";
import { groupWriter, type GroupWriter } from "../jobs/group-writer";
import { config } from "../config";
import type { AddressPolicy } from "../net/address-policy";
import { attemptDelivery, recordFailure, webhookPolicy } from "./delivery";
import * as q from "./queries";
import { getOrCreateSecret, openSecret } from "./secret";

/** Rows claimed per lane at a time; the next claim starts while a whole batch is still queued. */
const ROWS_PER_LANE = 8;

/**
 * How long a claim holds a row: long enough for every row queued ahead of it (two batches, i.e.
 * 2 × ROWS_PER_LANE rounds of the lanes) to time out one after another, plus two rounds to spare. A lapsed
 * claim only costs a second POST with the same webhook-id.
 */
export function leaseMs(): number {
  return config().webhooks.timeoutMs * (2 * ROWS_PER_LANE + 2);
}

let stopping = false;
let active: Drain | null = null;
let activeDone: Promise<void> | null = null;

class Drain {
  private readonly concurrency = config().webhooks.concurrency;
  private readonly batch = this.concurrency * ROWS_PER_LANE;
  private readonly policy: AddressPolicy = webhookPolicy();
  private readonly outcomes: GroupWriter<q.Outcome>;
  private readonly sideWrites: Promise<unknown>[] = [];
  private queue: q.Claimed[] = [];
  private claiming: Promise<void> | null = null;
  /** No due row was left at the last claim, and no wake-up has come since it started. */
  private exhausted = false;
  private wakes = 0;
  private error: unknown = null;
  finishing = false;
  /** Users whose webhook this drain switched off, and why: their claimed rows are cancelled, not sent. */
  private readonly switchedOff = new Map<string, string>();
  /** Users with a failure run on record, as this drain last left it. */
  private readonly failing = new Map<string, boolean>();

  constructor(private readonly db: DB) {
    this.outcomes = groupWriter((items) => q.writeOutcomes(db, items));
  }

  /** A new wake-up while running: rows may have been written after the last claim looked. */
  rewake(): void {
    this.wakes++;
    this.exhausted = false;
  }

  async run(): Promise<void> {
    for (;;) {
      await Promise.all(Array.from({ length: this.concurrency }, () => this.lane()));
      // A wake-up that came after the last lane found nothing: go round again rather than miss its rows.
      if (this.exhausted || stopping || this.error !== null) break;
    }
    this.finishing = true; // set in the same tick as the check above, so no wake-up falls in between
    const writes = await Promise.allSettled([
      this.outcomes.flushed(),
      ...this.sideWrites,
      q.releaseClaims(
        this.db,
        this.queue.map((row) => row.id),
      ),
    ]);
    if (this.error !== null) throw this.error;
    const failure = writes.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failure) throw failure.reason;
  }

  private async lane(): Promise<void> {
    try {
      for (let row = await this.take(); row; row = await this.take()) await this.deliver(row);
    } catch (error) {
      this.error ??= error; // the others stop; the job fails and graphile-worker retries it
    }
  }

  private claim(): void {
    const wakesBefore = this.wakes;
    this.claiming = q
      .claimDue(this.db, this.batch, leaseMs())
      .then(
        (rows) => {
          if (rows.length < this.batch && wakesBefore === this.wakes) this.exhausted = true;
          this.queue.push(...rows);
        },
        (error: unknown) => {
          this.error ??= error;
        },
      )
      .finally(() => (this.claiming = null));
  }

  private async take(): Promise<q.Claimed | null> {
    for (;;) {
      if (stopping || this.error !== null) return null;
      // Claiming ahead: a claim takes tens of milliseconds on a busy database, lanes empty a batch in about as long.
      if (this.queue.length <= this.batch && !this.exhausted && !this.claiming) this.claim();
      const row = this.queue.shift();
      if (row) return row;
      if (!this.claiming) return null; // exhausted: nothing due is left
      await this.claiming;
    }
  }

  private async deliver(row: q.Claimed): Promise<void> {
    const attempt = row.attempts + 1;
    const offReason = this.switchedOff.get(row.user_id) ?? (row.webhook_enabled && row.webhook_url ? null : row.disabled_reason);
    if (offReason !== null || !row.webhook_enabled || !row.webhook_url) {
      const error = offReason ? `Webhook switched off: ${offReason}` : "Webhook turned off before delivery";
      void this.outcomes.add({ id: row.id, attempt, status: "cancelled", responseStatus: null, error }).catch(() => {});
      return;
    }
    const secret = (row.secret_ciphertext && openSecret(row.secret_ciphertext, row.user_id)) || (await getOrCreateSecret(this.db, row.user_id));
    const result = await attemptDelivery(row.webhook_url, secret, row.id, row.body, this.policy);
    if (result.ok) {
      // Not awaited: the lane moves on while the group write is in flight; run() waits for it.
      void this.outcomes.add({ id: row.id, attempt, status: "delivered", responseStatus: result.status, error: null }).catch(() => {});
      // The endpoint row is shared by all of a user's deliveries: write it only when a failure run ends.
      if (this.failing.get(row.user_id) ?? Boolean(row.failure_streak)) {
        this.failing.set(row.user_id, false);
        this.sideWrites.push(q.endFailureRun(this.db, row.user_id));
      }
      return;
    }
    this.failing.set(row.user_id, true);
    const disabled = await recordFailure(this.db, row.user_id, row.id, attempt, result);
    if (disabled) this.switchedOff.set(row.user_id, disabled);
  }
}

/**
 * The deliver_webhooks task: sends every due delivery, returning once their outcomes are written. One
 * drain runs per process (its lanes are WEBHOOK_CONCURRENCY). A wake-up that arrives meanwhile hands its
 * rows to it and ends at once, so waiting wake-ups never hold the queue's slots that alerts also need;
 * should the process die, the rows stay due and the sweep finds them.
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

/** Stops claiming (queued rows go back at once) so a graceful shutdown is quick; in-flight POSTs finish. */
export function stopDeliveries(): void {
  stopping = true;
}

export function resumeDeliveries(): void {
  stopping = false;
}
