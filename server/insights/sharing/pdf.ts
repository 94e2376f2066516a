// The printable report: PDFKit with its built-in Helvetica (no font is fetched or read from outside pdfkit), charts
// drawn by ECharts on the server and embedded as vector graphics (svg-to-pdfkit), then the tables. A section per
// site or camera, each starting on a new page.
import PDFDocument from "pdfkit";
import SVGtoPDF from "svg-to-pdfkit";
import { brand } from "#app/lib/brand";
import type { InsightsReport } from "#app/schemas/insights";
import { reportCharts } from "./charts";
import { busiestDay, change, peakText } from "./summary";
import { cellText, reportTables, type ReportTable } from "./tables";

const MARGIN = 40;
const PAGE = { width: 595.28, height: 841.89 }; // A4 in points
const WIDTH = PAGE.width - 2 * MARGIN;
const INK = "#0f172a";
const MUTED = "#64748b";
const TABLE_ROWS = 60;

// WinAnsi's characters beyond Latin-1 (0x80–0x9F), which Helvetica can draw.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
// Letters with a stroke rather than an accent, which Unicode does not decompose.
const STROKED: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i" };

/** The text Helvetica can draw: accents dropped where that makes it drawable, anything else as "?". */
export function winAnsi(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === "\n" || ch === "\t") out += " ";
    else if (STROKED[ch]) out += STROKED[ch];
    else {
      const plain = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += [...plain].every((c) => c.codePointAt(0)! >= 0x20 && c.codePointAt(0)! <= 0x7e) && plain.length > 0 ? plain : "?";
    }
  }
  return out;
}

type Doc = PDFKit.PDFDocument;

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > PAGE.height - MARGIN) doc.addPage();
}

function header(doc: Doc, report: InsightsReport): void {
  doc.font("Helvetica-Bold").fontSize(10).fillColor("#2563eb").text(winAnsi(brand.productName), MARGIN, MARGIN, { continued: true });
  doc
    .font("Helvetica")
    .fillColor(MUTED)
    .text(winAnsi(`  ${brand.tagline}`));
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(winAnsi(report.title), { width: WIDTH });
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(MUTED)
    .text(winAnsi(`${report.from} to ${report.to} · times in ${report.timeZone}`));
  doc.moveDown(0.8);
}

function totals(doc: Doc, report: InsightsReport): void {
  const { totals } = report;
  const boxes: [string, string, string][] = [
    ["Entries", String(totals.entries), `${change(totals.entries, totals.previous.entries)} vs previous period`],
    ["Exits", String(totals.exits), `${change(totals.exits, totals.previous.exits)} vs previous period`],
    ["Peak occupancy", report.occupancy.peak === null ? "–" : String(report.occupancy.peak), peakText(report)],
    ["A year before", totals.lastYear ? String(totals.lastYear.entries) : "–", totals.lastYear ? `${change(totals.entries, totals.lastYear.entries)} this year` : "no data then"],
  ];
  const top = doc.y;
  const boxWidth = (WIDTH - 3 * 8) / 4;
  boxes.forEach(([label, value, note], index) => {
    const x = MARGIN + index * (boxWidth + 8);
    doc.roundedRect(x, top, boxWidth, 62, 4).fillAndStroke("#f8fafc", "#e2e8f0");
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(winAnsi(label), x + 8, top + 7, { width: boxWidth - 16 });
    doc
      .font("Helvetica-Bold")
      .fontSize(18)
      .fillColor(INK)
      .text(winAnsi(value), x + 8, top + 19, { width: boxWidth - 16 });
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor(MUTED)
      .text(winAnsi(note), x + 8, top + 42, { width: boxWidth - 16, height: 18, ellipsis: true });
  });
  doc.x = MARGIN;
  doc.y = top + 72;
  const busiest = busiestDay(report);
  if (busiest)
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(INK)
      .text(winAnsi(`Busiest day: ${busiest.date}, ${busiest.entries} entries.`), MARGIN);
  doc.moveDown(0.6);
}

function charts(doc: Doc, report: InsightsReport): void {
  for (const chart of reportCharts(report, WIDTH)) {
    const height = Number(/height="(\d+(?:\.\d+)?)"/.exec(chart.svg)?.[1] ?? 240);
    ensureRoom(doc, height + 20);
    doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(winAnsi(chart.title), MARGIN);
    const top = doc.y + 2;
    SVGtoPDF(doc, chart.svg, MARGIN, top, {
      width: WIDTH,
      height,
      assumePt: true,
      fontCallback: (_family, bold) => (bold ? "Helvetica-Bold" : "Helvetica"),
      warningCallback: () => {},
    });
    doc.x = MARGIN;
    doc.y = top + height + 10;
  }
}

function table(doc: Doc, table: ReportTable, maxColumns: number): void {
  if (table.rows.length === 0) return;
  const columns = table.columns.slice(0, maxColumns);
  const width = WIDTH / columns.length;
  const rowHeight = 14;
  const drawRow = (cells: string[], bold: boolean) => {
    ensureRoom(doc, rowHeight);
    const y = doc.y;
    doc
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(8)
      .fillColor(INK);
    cells.forEach((text, index) => {
      doc.text(winAnsi(text), MARGIN + index * width + 2, y + 3, {
        width: width - 4,
        height: rowHeight,
        lineBreak: false,
        ellipsis: true,
        align: columns[index]?.numeric ? "right" : "left",
      });
    });
    doc
      .moveTo(MARGIN, y + rowHeight)
      .lineTo(MARGIN + WIDTH, y + rowHeight)
      .lineWidth(0.5)
      .strokeColor("#e2e8f0")
      .stroke();
    doc.x = MARGIN;
    doc.y = y + rowHeight;
  };
  ensureRoom(doc, 3 * rowHeight + 18);
  doc.moveDown(0.5);
  doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(winAnsi(table.name), MARGIN);
  drawRow(
    columns.map((column) => column.header),
    true,
  );
  for (const row of table.rows.slice(0, TABLE_ROWS)) drawRow(row.slice(0, maxColumns).map(cellText), false);
  if (table.rows.length > TABLE_ROWS) {
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(`… and ${table.rows.length - TABLE_ROWS} more rows (the CSV and Excel exports have them all).`, MARGIN, doc.y + 3);
  }
}

function section(doc: Doc, report: InsightsReport): void {
  header(doc, report);
  totals(doc, report);
  charts(doc, report);
  const [traffic, ...others] = reportTables(report);
  for (const each of others) table(doc, each, 6);
  table(doc, traffic!, 6);
}

/** The PDF of one or more report sections (a site, or each camera), each from a new page. */
export async function reportPdf(sections: InsightsReport[], title: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: MARGIN, info: { Title: winAnsi(title), Author: brand.productName, Creator: brand.productName }, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  for (const report of sections) {
    doc.addPage();
    section(doc, report);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
