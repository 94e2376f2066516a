// A report's period: its first and last local dates, and the instants they begin and end in the report's time zone.
import { addDays, zonedInstant } from "#app/lib/local-dates";

export interface Period {
  fromDate: string;
  toDate: string;
  /** The first local midnight and the one after the last date. */
  from: Date;
  to: Date;
}

export function period(fromDate: string, toDate: string, timeZone: string): Period {
  return { fromDate, toDate, from: zonedInstant(fromDate, "00:00", timeZone), to: zonedInstant(addDays(toDate, 1), "00:00", timeZone) };
}
