// The insight_reports job: every minute, each due scheduled Insights report is claimed by one run (whichever process
// claims it first) and e-mailed with its PDF (server/insights/sharing/schedules.ts).
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import { emailAvailable, type Mailer } from "../alerts/transports";
import { claimSchedule, dueSchedules, RETRY_MINUTES, scheduleDone, scheduledMail } from "../insights/sharing/schedules";
import { logger } from "../logger";

/** Sends every due scheduled report once; returns how many went. */
export async function sendDueReports(db: DB, mailer: Mailer, now = new Date()): Promise<number> {
  if (!emailAvailable()) return 0; // SMTP taken away since: the schedules wait for it, unclaimed
  let sent = 0;
  for (const due of await dueSchedules(db, now)) {
    const schedule = await claimSchedule(db, due.id, now);
    if (!schedule) continue; // another run has it
    try {
      const mail = await scheduledMail(db, schedule, now);
      await mailer.send(mail.to, mail.subject, mail.text, [{ filename: mail.pdf.filename, content: mail.pdf.bytes, contentType: mail.pdf.contentType }]);
      await scheduleDone(db, schedule, now, true);
      sent++;
    } catch (error) {
      // A view that no longer stands (a camera deleted since) fails the same way every time: wait for the next run.
      // Anything else (the SMTP server down) is tried again once the claim's retry time comes.
      const lasting = error instanceof ProblemError;
      if (lasting) await scheduleDone(db, schedule, now, false);
      logger.warn(
        { err: error, scheduleId: schedule.id },
        lasting ? "scheduled insights report skipped: its view no longer stands" : `scheduled insights report not sent; retried in ${RETRY_MINUTES} minutes`,
      );
    }
  }
  return sent;
}
