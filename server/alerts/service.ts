// Alert contacts and sending. An address or number receives alerts only after its owner proved it with a
// 6-digit code sent to it (15 minutes, 5 tries, one new code per 30 s), so alerts can't be aimed at strangers.
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { AlertChannel, AlertStatus, ContactStart } from "#app/schemas/automation";
import type { AlertJob } from "#app/schemas/events";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import { logger } from "../logger";
import { recordAlert } from "../timeline/record";
import * as q from "./queries";
import { emailAvailable, sendSms, smsAvailable, type Mailer } from "./transports";

const CODE_MINUTES = 15;
const CODE_TRIES = 5;
const RESEND_SECONDS = 30;

const hashCode = (userId: string, code: string) => createHash("sha256").update(`${userId}:${code}`).digest("hex");

function requireTransport(channel: AlertChannel): void {
  if (channel === "email" && !emailAvailable())
    throw new ProblemError(
      503,
      "E-mail alerts are not set up on this server: the operator must set SMTP_HOST and SMTP_FROM (and SMTP_USER, SMTP_PASSWORD if the server needs them)",
    );
  if (channel === "sms" && !smsAvailable())
    throw new ProblemError(503, "SMS alerts are not set up on this server: the operator must set SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM");
}

export async function alertStatus(db: DB, userId: string): Promise<AlertStatus> {
  const rows = await q.listContacts(db, userId);
  return {
    emailAvailable: emailAvailable(),
    smsAvailable: smsAvailable(),
    contacts: rows.map((row) => ({ channel: row.channel, address: row.address, verified: row.verified_at !== null, pending: row.verified_at === null && row.code_hash !== null })),
  };
}

/** Stores the (unverified) address and sends it a code. */
export async function startVerification(db: DB, mailer: Mailer, userId: string, input: ContactStart): Promise<AlertStatus> {
  requireTransport(input.channel);
  const existing = await q.findContact(db, userId, input.channel);
  if (existing?.code_sent_at && Date.now() - existing.code_sent_at.getTime() < RESEND_SECONDS * 1000) {
    throw new ProblemError(429, `A code was sent less than ${RESEND_SECONDS} seconds ago; wait a moment before asking for another`, {
      headers: { "Retry-After": String(RESEND_SECONDS) },
    });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const values = {
    address: input.address,
    verified_at: null,
    code_hash: hashCode(userId, code),
    code_expires_at: new Date(Date.now() + CODE_MINUTES * 60_000),
    code_attempts: 0,
    code_sent_at: new Date(),
  };
  await q.upsertContact(db, userId, input.channel, values);
  const text = `Your Framewise verification code is ${code}. It expires in ${CODE_MINUTES} minutes.`;
  try {
    if (input.channel === "email") await mailer.send(input.address, "Your Framewise verification code", `${text}\n\nIf you did not ask for it, ignore this message.`);
    else await sendSms(input.address, text);
  } catch (error) {
    logger.error({ err: error, channel: input.channel }, "could not send a verification code");
    await q.updateContact(db, userId, input.channel, { code_sent_at: null });
    throw new ProblemError(502, `The verification code could not be sent: ${error instanceof Error ? error.message : "unknown error"}`);
  }
  return alertStatus(db, userId);
}

export async function confirmVerification(db: DB, userId: string, channel: AlertChannel, code: string): Promise<AlertStatus> {
  const row = await q.findContact(db, userId, channel);
  if (!row?.code_hash || !row.code_expires_at) throw new ProblemError(409, "No code is waiting for confirmation; ask for a new one");
  if (row.code_expires_at.getTime() < Date.now() || row.code_attempts >= CODE_TRIES) {
    throw new ProblemError(410, "That code has expired; ask for a new one", { errors: { code: ["expired"] } });
  }
  const expected = Buffer.from(row.code_hash);
  const given = Buffer.from(hashCode(userId, code));
  if (!timingSafeEqual(expected, given)) {
    await q.updateContact(db, userId, channel, { code_attempts: row.code_attempts + 1 });
    throw new ProblemError(400, "That code is not right", { errors: { code: ["That code is not right"] } });
  }
  await q.updateContact(db, userId, channel, { verified_at: new Date(), code_hash: null, code_expires_at: null, code_attempts: 0 });
  return alertStatus(db, userId);
}

export async function removeContact(db: DB, userId: string, channel: AlertChannel): Promise<AlertStatus> {
  await q.deleteContact(db, userId, channel);
  return alertStatus(db, userId);
}

/**
 * The queue task: sends one alert on one channel to the owner's verified contact. A missing contact or
 * transport ends the job (nothing to retry); a transport error throws, and the queue retries it.
 */
export async function sendAlert(db: DB, mailer: Mailer, job: AlertJob): Promise<void> {
  const contact = await q.findContact(db, job.userId, job.channel);
  if (!contact?.verified_at) return;
  if (job.channel === "email" ? !emailAvailable() : !smsAvailable()) return;
  try {
    if (job.channel === "email") await mailer.send(contact.address, job.subject, job.text);
    else await sendSms(contact.address, job.text);
  } catch (error) {
    await onTimeline(db, job, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await onTimeline(db, job);
}

/** The send on the events timeline; a failure to write it is logged, never a reason to send the alert again. */
async function onTimeline(db: DB, job: AlertJob, error?: string): Promise<void> {
  await recordAlert(db, job, error).catch((failure: unknown) => logger.warn({ err: failure, ruleId: job.ruleId }, "could not record an alert on the timeline"));
}
