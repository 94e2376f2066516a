// Scheduled e-mail reports: weekly (Mondays, last week) or monthly (the 1st, last month), at 07:00 in the view's time
// zone, the summary in the mail and the PDF attached. The insight_reports job (every minute, server/automation/insight-reports.ts) sends what is due.
import type { DB } from "#db/index";
import { MAX_SCHEDULES, reportFilterSchema, type Schedule, type ScheduleInput } from "#app/schemas/insights";
import { ProblemError, notFound } from "../../errors";
import { config } from "../../config";
import { pdfFile, type ReportFile } from "./files";
import { nextRunAt } from "./next-run";
import { reportMailText } from "./summary";
import { requireOwnView, viewQuery, viewTimeZone } from "./view";

/**
 * A claimed schedule's next_run_at is first pushed this far ahead, then to its next regular run once the mail is
 * sent. A send that fails (or a process that dies mid-send) leaves it there: the run that many minutes later tries
 * again, and the report it sends is still last week's or last month's.
 */
export const RETRY_MINUTES = 10;

type Frequency = ScheduleInput["frequency"];

type ScheduleRow = {
  id: string;
  name: string;
  frequency: Frequency;
  recipients: string[];
  view: Record<string, unknown>;
  next_run_at: Date;
  last_sent_at: Date | null;
  created_at: Date;
};
const columns = ["id", "name", "frequency", "recipients", "view", "next_run_at", "last_sent_at", "created_at"] as const;

function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    name: row.name,
    frequency: row.frequency,
    recipients: row.recipients,
    view: reportFilterSchema.parse(row.view),
    nextRunAt: row.next_run_at.toISOString(),
    lastSentAt: row.last_sent_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listSchedules(db: DB, userId: string): Promise<Schedule[]> {
  const rows = await db.selectFrom("insight_schedules").select(columns).where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map(toSchedule);
}

export async function createSchedule(db: DB, userId: string, input: ScheduleInput, now = new Date()): Promise<Schedule> {
  if (!config().smtp) throw new ProblemError(503, "E-mail is not configured");
  const { timeZone } = await requireOwnView(db, userId, input.view);
  const recipients = [...new Set(input.recipients.map((address) => address.trim()))];
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const count = await trx
      .selectFrom("insight_schedules")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_SCHEDULES) throw new ProblemError(409, `At most ${MAX_SCHEDULES} scheduled reports: remove one first`);
    const row = await trx
      .insertInto("insight_schedules")
      .values({
        user_id: userId,
        name: input.name,
        frequency: input.frequency,
        recipients,
        view: input.view,
        next_run_at: nextRunAt(input.frequency, timeZone, now),
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toSchedule(row);
  });
}

export async function removeSchedule(db: DB, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom("insight_schedules").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound("Scheduled report");
}

/** The ids of the schedules due at `now`, the longest waiting first. */
export async function dueSchedules(db: DB, now: Date): Promise<{ id: string }[]> {
  return db.selectFrom("insight_schedules").select(["id"]).where("next_run_at", "<=", now).orderBy("next_run_at").limit(100).execute();
}

export type ClaimedSchedule = ScheduleRow & { user_id: string };

/**
 * Claims a due schedule: moves its next_run_at to the retry time in one statement that only one run can win. A run
 * that reaches the row second waits for the first's update, reads the row again and finds it no longer due (READ
 * COMMITTED re-checks the WHERE on the new row). Null when another run took it first.
 */
export async function claimSchedule(db: DB, id: string, now: Date): Promise<ClaimedSchedule | null> {
  const row = await db
    .updateTable("insight_schedules")
    .set({ next_run_at: new Date(now.getTime() + RETRY_MINUTES * 60_000) })
    .where("id", "=", id)
    .where("next_run_at", "<=", now)
    .returning([...columns, "user_id"])
    .executeTakeFirst();
  return row ?? null;
}

/** A claimed schedule's e-mail: last week's or last month's report, summed up, with the PDF. */
export async function scheduledMail(db: DB, schedule: ClaimedSchedule, now: Date): Promise<{ to: string; subject: string; text: string; pdf: ReportFile }> {
  const view = reportFilterSchema.parse(schedule.view);
  const query = await viewQuery(db, schedule.user_id, view, schedule.frequency === "weekly" ? "lastWeek" : "lastMonth", now);
  const { file, report } = await pdfFile(db, schedule.user_id, query);
  return {
    to: schedule.recipients.join(", "),
    subject: `${schedule.name}: ${report.title}, ${report.from} to ${report.to}`,
    text: reportMailText(report, schedule.name),
    pdf: file,
  };
}

/** After the mail went (or could never go: `sent` false), the schedule waits for its next regular run. */
export async function scheduleDone(db: DB, schedule: ClaimedSchedule, now: Date, sent: boolean): Promise<void> {
  const timeZone = await viewTimeZone(db, schedule.user_id, reportFilterSchema.parse(schedule.view));
  await db
    .updateTable("insight_schedules")
    .set({ next_run_at: nextRunAt(schedule.frequency, timeZone, now), ...(sent ? { last_sent_at: now } : {}) })
    .where("id", "=", schedule.id)
    .execute();
}
