// A report as files: CSV (its tables one after another) and an Excel workbook (a sheet per table, plus a summary),
// with the file name that says what and when.
import ExcelJS from "exceljs";
import { brand } from "#app/lib/brand";
import type { InsightsReport } from "#app/schemas/insights";
import { csvRows, slugOf } from "../../csv";
import { cellText, isLocalTime, reportTables, type TableCell } from "./tables";

/** framewise-insights-<slug>-<from>-<to>.<extension> */
export function reportFilename(report: InsightsReport, extension: "csv" | "xlsx" | "pdf"): string {
  return `${slugOf(brand.productName, "report")}-insights-${slugOf(report.title, "report")}-${report.from}-${report.to}.${extension}`;
}

/** The summary rows every export starts with: what, when, where, and the totals against the periods before. */
export function summaryRows(report: InsightsReport): [string, string | number][] {
  const rows: [string, string | number][] = [
    ["Report", report.title],
    ["From", report.from],
    ["To", report.to],
    ["Time zone", report.timeZone],
    ["Entries", report.totals.entries],
    ["Exits", report.totals.exits],
    [`Entries, previous period (${report.totals.previous.from} to ${report.totals.previous.to})`, report.totals.previous.entries],
  ];
  if (report.totals.lastYear) rows.push([`Entries, a year before (${report.totals.lastYear.from} to ${report.totals.lastYear.to})`, report.totals.lastYear.entries]);
  if (report.occupancy.peak !== null) rows.push(["Peak occupancy", report.occupancy.peak]);
  if (report.capacity !== null) rows.push(["Capacity", report.capacity]);
  return rows;
}

export function reportCsv(report: InsightsReport): string {
  const sections = [csvRows(summaryRows(report))];
  for (const table of reportTables(report)) {
    sections.push(csvRows([[table.name], table.columns.map((column) => column.header), ...table.rows.map((row) => row.map(cellText))]));
  }
  return sections.join("\r\n");
}

/** Excel dates carry no time zone: a local time is written as the wall clock it reads in the report's zone. */
function excelValue(cell: TableCell): ExcelJS.CellValue {
  if (cell === null) return null;
  return isLocalTime(cell) ? cell.local : cell;
}

export async function reportXlsx(report: InsightsReport): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = brand.productName;
  workbook.title = report.title;
  const summary = workbook.addWorksheet("Summary");
  summary.columns = [{ width: 56 }, { width: 28 }];
  for (const row of summaryRows(report)) summary.addRow(row);
  summary.getColumn(1).font = { bold: true };

  for (const table of reportTables(report)) {
    const sheet = workbook.addWorksheet(table.name);
    sheet.addRow(table.columns.map((column) => column.header)).font = { bold: true };
    sheet.views = [{ state: "frozen", ySplit: 1 }];
    for (const row of table.rows) sheet.addRow(row.map(excelValue));
    table.columns.forEach((column, index) => {
      const sample = table.rows.find((row) => row[index] !== null)?.[index];
      const excelColumn = sheet.getColumn(index + 1);
      excelColumn.width = Math.max(12, column.header.length + 2);
      if (sample !== undefined && isLocalTime(sample)) excelColumn.numFmt = sample.precision === "day" ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm";
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
