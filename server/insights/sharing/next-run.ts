// When a scheduled report goes out: at 07:00 in the view's time zone, on Mondays (weekly) or the 1st (monthly).
import type { ScheduleInput } from "#app/schemas/insights";
import { addDays, localDate, weekday, zonedInstant } from "#app/lib/local-dates";

const SEND_AT = "07:00";

/** The first regular run after `now`: the next Monday 07:00 (weekly) or the next 1st 07:00 (monthly), local time. */
export function nextRunAt(frequency: ScheduleInput["frequency"], timeZone: string, now: Date): Date {
  const today = localDate(now, timeZone);
  for (let days = 0; days <= 62; days++) {
    const date = addDays(today, days);
    const due = frequency === "weekly" ? weekday(date) === 1 : date.endsWith("-01");
    if (!due) continue;
    const at = zonedInstant(date, SEND_AT, timeZone);
    if (at > now) return at;
  }
  throw new Error("no run within two months"); // unreachable: every month has a Monday and a 1st
}
