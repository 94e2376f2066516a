// The report's renderers on a hand-made report: CSV cells never read as formulas, the workbook's numbers and local
// dates, the PDF's text in Helvetica, the mail's summary and the schedules' next run across a clock change.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { InsightsReport } from "#app/schemas/insights";
import { reportCsv, reportFilename, reportXlsx } from "./exports";
import { reportPdf, winAnsi } from "./pdf";
import { nextRunAt } from "./next-run";
import { reportMailText } from "./summary";

const report: InsightsReport = {
  title: '=HYPERLINK("x") Shop',
  timeZone: "Europe/London",
  from: "2026-03-28",
  to: "2026-03-29",
  resolution: "day",
  capacity: 50,
  totals: {
    from: "2026-03-28",
    to: "2026-03-29",
    entries: 312,
    exits: 300,
    previous: { from: "2026-03-26", to: "2026-03-27", entries: 240, exits: 238 },
    lastYear: null,
  },
  // 2026-03-29 is the spring-forward day in London: local midnight is 00:00 UTC, 10:00 local is 09:00 UTC.
  traffic: [
    { start: "2026-03-28T00:00:00.000Z", entries: 112, exits: 110 },
    { start: "2026-03-29T00:00:00.000Z", entries: 200, exits: 190 },
  ],
  occupancy: {
    peak: 40,
    peakAt: "2026-03-29T09:15:00.000Z",
    days: [
      { date: "2026-03-28", entries: 112, exits: 110, peak: 25, peakAt: "2026-03-28T11:00:00.000Z" },
      { date: "2026-03-29", entries: 200, exits: 190, peak: 40, peakAt: "2026-03-29T09:15:00.000Z" },
    ],
    curve: [
      { at: "2026-03-28T10:00:00.000Z", occupancy: 10 },
      { at: "2026-03-29T09:15:00.000Z", occupancy: 40 },
    ],
    detail: "minute",
  },
  weekHours: Array.from({ length: 7 }, (_, day) => Array.from({ length: 24 }, (_, hour) => (day === 5 && hour === 11 ? 112 : day === 6 && hour === 10 ? 200 : 0))),
  lines: [{ id: "7c1d7a1e-7c45-4a8e-9d0c-3f1f1b1e5e01", name: "+Front door", cameraName: "Entrance", in: 312, out: 300 }],
  zones: [
    {
      id: "7c1d7a1e-7c45-4a8e-9d0c-3f1f1b1e5e02",
      name: "Café ☕ till",
      cameraName: "Entrance",
      entered: 90,
      exited: 88,
      loitering: 3,
      dwell: { median: 45, buckets: [10, 30, 60, 120, 300, 600, 1800, 3600, null].map((upTo, index) => ({ upTo, count: index === 2 ? 50 : 5 })) },
    },
  ],
  sessions: [],
};

describe("report exports", () => {
  it("writes CSV whose cells are never formulas, with local times", () => {
    const csv = reportCsv(report);
    expect(csv).toContain(`Report,"'=HYPERLINK(""x"") Shop"`);
    expect(csv).toContain("'+Front door,Entrance,312,300");
    expect(csv).toContain("Start (Europe/London),Entries,Exits\r\n2026-03-28 00:00,112,110\r\n2026-03-29 00:00,200,190");
    // The peak at 09:15 UTC on the spring-forward day is 10:15 in London.
    expect(csv).toContain("2026-03-29,200,190,40,2026-03-29 10:15");
    expect(csv).not.toMatch(/(^|,)[=+@-]/m);
    expect(reportFilename(report, "csv")).toBe("framewise-insights-hyperlink-x-shop-2026-03-28-2026-03-29.csv");
  });

  it("writes a workbook with a sheet per table, bold headers, numbers as numbers and local times as dates", async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await reportXlsx(report)) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Summary", "Traffic", "Occupancy", "Lines", "Zones"]);
    const occupancy = workbook.getWorksheet("Occupancy")!;
    expect(occupancy.getRow(1).font?.bold).toBe(true);
    expect(occupancy.getCell("D3").value).toBe(40);
    const peakAt = occupancy.getCell("E3");
    expect(peakAt.value).toBeInstanceOf(Date);
    expect((peakAt.value as Date).toISOString()).toBe("2026-03-29T10:15:00.000Z"); // the London wall clock
    expect(peakAt.numFmt).toBe("yyyy-mm-dd hh:mm");
    expect(workbook.getWorksheet("Lines")!.getCell("C2").value).toBe(312);
    expect(workbook.getWorksheet("Zones")!.getCell("F2").value).toBe(45);
  });

  it("prints a PDF in the built-in fonts, with the title, whatever the names' characters", async () => {
    const pdf = await reportPdf([report, { ...report, title: "Back door" }], "Shop report");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdf.toString("latin1");
    expect(text).toContain("(Shop report)"); // the document title, an uncompressed string
    expect(text.match(/\/Type \/Page\b/g)!.length).toBeGreaterThanOrEqual(2);
    expect(text).not.toMatch(/FontFile/); // only the standard 14 fonts: nothing embedded, nothing fetched
    expect(winAnsi("Café ☕ – Łódź 東京")).toBe("Café ? – Lódz ??");
  });

  it("sums the report up in the mail's words", () => {
    expect(reportMailText(report, "Weekly")).toContain("Entries: 312 (+30% vs 240 the period before)");
    expect(reportMailText(report, "Weekly")).toContain("Peak occupancy: 40 (at 2026-03-29 10:15, 80% of capacity)");
    expect(reportMailText(report, "Weekly")).toContain("Busiest day: 2026-03-29 (200 entries)");
  });

  it("runs weekly reports on Mondays and monthly ones on the 1st at 07:00 local time", () => {
    // Sunday 29 March 2026, the day London moves to summer time: Monday 07:00 BST is 06:00 UTC.
    expect(nextRunAt("weekly", "Europe/London", new Date("2026-03-29T12:00:00Z")).toISOString()).toBe("2026-03-30T06:00:00.000Z");
    expect(nextRunAt("weekly", "Europe/London", new Date("2026-03-30T05:59:00Z")).toISOString()).toBe("2026-03-30T06:00:00.000Z");
    expect(nextRunAt("weekly", "Europe/London", new Date("2026-03-30T06:00:00Z")).toISOString()).toBe("2026-04-06T06:00:00.000Z");
    expect(nextRunAt("monthly", "America/New_York", new Date("2026-11-01T12:00:00Z")).toISOString()).toBe("2026-12-01T12:00:00.000Z");
    expect(nextRunAt("monthly", "UTC", new Date("2026-12-15T00:00:00Z")).toISOString()).toBe("2027-01-01T07:00:00.000Z");
  });
});
