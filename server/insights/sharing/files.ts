// A report as a download: CSV, Excel, or the printable PDF (a section for the site, or one per camera).
import type { DB } from "#db/index";
import type { InsightsReport, ReportQuery } from "#app/schemas/insights";
import { buildReport } from "../report";
import { reportCsv, reportFilename, reportXlsx } from "./exports";
import { reportPdf } from "./pdf";

export interface ReportFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
} as const;

/**
 * The PDF's sections: a report over a site (or one camera) is one; over several cameras without a site, one per
 * camera, each with the lines and zones of the filter that are that camera's.
 */
async function pdfSections(db: DB, userId: string, query: ReportQuery): Promise<{ whole: InsightsReport; sections: InsightsReport[] }> {
  // The whole report first: it checks the filter names only the user's things (404) and stands in when nothing splits.
  const whole = await buildReport(db, userId, query);
  if (query.siteId) return { whole, sections: [whole] };
  const cameras = await db
    .selectFrom("cameras")
    .select(["id"])
    .where("user_id", "=", userId)
    .$if((query.cameraIds ?? []).length > 0, (qb) => qb.where("id", "in", query.cameraIds!))
    .orderBy("name")
    .orderBy("id")
    .limit(50)
    .execute();
  if (cameras.length <= 1) return { whole, sections: [whole] };
  const regions = async (table: "vision_lines" | "vision_zones", ids: string[] | undefined) =>
    ids && ids.length > 0 ? await db.selectFrom(table).select(["id", "camera_id"]).where("user_id", "=", userId).where("id", "in", ids).execute() : [];
  const [lines, zones] = await Promise.all([regions("vision_lines", query.lineIds), regions("vision_zones", query.zoneIds)]);
  const sections: InsightsReport[] = [];
  for (const camera of cameras) {
    const lineIds = lines.filter((line) => line.camera_id === camera.id).map((line) => line.id);
    const zoneIds = zones.filter((zone) => zone.camera_id === camera.id).map((zone) => zone.id);
    // The filter chose lines or zones, none of them on this camera: the camera has nothing in the report.
    if ((query.lineIds?.length || query.zoneIds?.length) && lineIds.length === 0 && zoneIds.length === 0) continue;
    sections.push(await buildReport(db, userId, { ...query, cameraIds: [camera.id], lineIds, zoneIds }));
  }
  return { whole, sections: sections.length > 0 ? sections : [whole] };
}

/** The printable report, and the whole report it was made from (what a scheduled e-mail sums up). */
export async function pdfFile(db: DB, userId: string, query: ReportQuery): Promise<{ file: ReportFile; report: InsightsReport }> {
  const { whole, sections } = await pdfSections(db, userId, query);
  const bytes = await reportPdf(sections, `${whole.title}, ${whole.from} to ${whole.to}`);
  return { file: { filename: reportFilename(whole, "pdf"), contentType: CONTENT_TYPES.pdf, bytes }, report: whole };
}

export async function reportFile(db: DB, userId: string, query: ReportQuery, format: "csv" | "xlsx" | "pdf"): Promise<ReportFile> {
  if (format === "pdf") return (await pdfFile(db, userId, query)).file;
  const report = await buildReport(db, userId, query);
  const bytes = format === "csv" ? Buffer.from(reportCsv(report), "utf8") : await reportXlsx(report);
  return { filename: reportFilename(report, format), contentType: CONTENT_TYPES[format], bytes };
}

/** The answer that downloads a file, its name in Content-Disposition (ASCII, and in full per RFC 6266). */
export function fileResponse(file: ReportFile): Response {
  const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "Cache-Control": "private, no-store",
    },
  });
}
