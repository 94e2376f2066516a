// A report's tables, in one shape for every export: CSV, the Excel workbook's sheets and the PDF's tables all render
// these, so the three never disagree on a column. Times are local to the report's time zone.
import { DWELL_BUCKETS, type InsightsReport } from "#app/schemas/insights";
import { wallClock } from "#app/lib/local-dates";

/** A local wall-clock time: the instant's fields in the report's time zone, held as the UTC fields of a Date. */
export interface LocalTime {
  local: Date;
  /** Minutes and seconds shown, or the date alone. */
  precision: "minute" | "day";
}
export type TableCell = string | number | LocalTime | null;

export interface ReportTable {
  name: string;
  columns: { header: string; numeric?: boolean }[];
  rows: TableCell[][];
}

export function localTime(iso: string, timeZone: string): LocalTime {
  const w = wallClock(new Date(iso), timeZone);
  return { local: new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute)), precision: "minute" };
}

/** A YYYY-MM-DD local date as a LocalTime. */
export function localDay(date: string): LocalTime {
  return { local: new Date(`${date}T00:00:00Z`), precision: "day" };
}

export function isLocalTime(cell: TableCell): cell is LocalTime {
  return typeof cell === "object" && cell !== null;
}

/** "2026-11-29 14:05" or "2026-11-29". */
export function formatLocal(time: LocalTime): string {
  const iso = time.local.toISOString();
  return time.precision === "day" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

export function cellText(cell: TableCell): string {
  if (cell === null) return "";
  if (isLocalTime(cell)) return formatLocal(cell);
  return typeof cell === "number" ? String(Math.round(cell * 100) / 100) : cell;
}

const bucketHeader = (upTo: number | null) => (upTo === null ? `over ${DWELL_BUCKETS[DWELL_BUCKETS.length - 1]} s` : `up to ${upTo} s`);

export function reportTables(report: InsightsReport): ReportTable[] {
  const tz = report.timeZone;
  const n = (header: string) => ({ header, numeric: true });
  const buckets = report.zones[0]?.dwell.buckets ?? [...DWELL_BUCKETS.map((upTo) => ({ upTo })), { upTo: null }];
  return [
    {
      name: "Traffic",
      columns: [{ header: `Start (${tz})` }, n("Entries"), n("Exits")],
      rows: report.traffic.map((step) => [localTime(step.start, tz), step.entries, step.exits]),
    },
    {
      name: "Occupancy",
      columns: [{ header: "Date" }, n("Entries"), n("Exits"), n("Peak occupancy"), { header: `Peak at (${tz})` }],
      rows: report.occupancy.days.map((day) => [localDay(day.date), day.entries, day.exits, day.peak, day.peakAt ? localTime(day.peakAt, tz) : null]),
    },
    {
      name: "Lines",
      columns: [{ header: "Line" }, { header: "Camera" }, n("In"), n("Out")],
      rows: report.lines.map((line) => [line.name, line.cameraName, line.in, line.out]),
    },
    {
      name: "Zones",
      columns: [
        { header: "Zone" },
        { header: "Camera" },
        n("Entered"),
        n("Exited"),
        n("Loitering"),
        n("Median dwell (s)"),
        ...buckets.map((bucket) => n(`Dwell ${bucketHeader(bucket.upTo)}`)),
      ],
      rows: report.zones.map((zone) => [
        zone.name,
        zone.cameraName,
        zone.entered,
        zone.exited,
        zone.loitering,
        zone.dwell.median,
        ...buckets.map((_, index) => zone.dwell.buckets[index]?.count ?? 0),
      ]),
    },
  ];
}
