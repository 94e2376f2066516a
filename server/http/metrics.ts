// GET /metrics: the server's local-vision pipelines in the Prometheus text format (issue 30), for whoever runs eight
// cameras in a building all week. Deployment-wide (every process writes its pipelines' figures to camera_watches,
// so any process answers for all), behind a bearer token (METRICS_TOKEN; unset, /metrics is 404 as if absent).
import { timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { db } from "#db/index";
import { config } from "../config";
import { listWatchStats } from "../local-vision/queries";
import { STATS_FRESH_MS } from "../local-vision/watch";
import { problemBody } from "./problem";

const GAUGES = [
  ["decode_fps", "decodeFps", "Frames decoded per second, over the last 10 s."],
  ["detect_fps", "detectFps", "Frames the detector ran on per second, over the last 10 s (motion skips the rest)."],
  ["detector_ms", "detectorMs", "The detector's mean time per frame, over the last 10 s, in milliseconds."],
  ["cpu_percent", "cpuPercent", "The pipeline's CPU (decoder and detector) in % of one core, over the last 10 s."],
  ["tracks", "tracks", "Objects tracked now."],
] as const;

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function sendProblem(res: Response, status: number, detail: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...headers })
    .send(JSON.stringify(problemBody(status, detail)));
}

export async function metrics(req: Request, res: Response): Promise<void> {
  const token = config().metricsToken;
  if (!token) return sendProblem(res, 404, "Metrics are off: set METRICS_TOKEN to turn them on");
  if (!tokenMatches(req.get("authorization"), token))
    return sendProblem(res, 401, "Send the metrics token as Authorization: Bearer <METRICS_TOKEN>", { "WWW-Authenticate": 'Bearer realm="metrics"' });
  const now = Date.now();
  const rows = await listWatchStats(db());
  const lines: string[] = [];
  const labelsOf = (row: (typeof rows)[number]) => `camera_id="${escapeLabel(row.camera_id)}",camera="${escapeLabel(row.name)}"`;
  const fresh = rows.map((row) => ({ row, stats: row.stats && row.stats_at && now - row.stats_at.getTime() < STATS_FRESH_MS ? row.stats : null }));

  lines.push("# HELP framewise_pipeline_up 1 while a process runs the watched camera's pipeline and frames arrive, else 0.");
  lines.push("# TYPE framewise_pipeline_up gauge");
  for (const { row, stats } of fresh) lines.push(`framewise_pipeline_up{${labelsOf(row)}} ${stats?.state === "running" ? 1 : 0}`);
  for (const [name, key, help] of GAUGES) {
    lines.push(`# HELP framewise_pipeline_${name} ${help}`, `# TYPE framewise_pipeline_${name} gauge`);
    for (const { row, stats } of fresh) if (stats) lines.push(`framewise_pipeline_${name}{${labelsOf(row)}} ${stats[key]}`);
  }
  lines.push("# HELP framewise_pipeline_dropped_frames_total Frames decoded while the detector was behind, dropped rather than queued, since the pipeline started.");
  lines.push("# TYPE framewise_pipeline_dropped_frames_total counter");
  for (const { row, stats } of fresh) if (stats) lines.push(`framewise_pipeline_dropped_frames_total{${labelsOf(row)}} ${stats.droppedFrames}`);
  lines.push("# HELP framewise_pipeline_last_event_timestamp_seconds When the pipeline last recorded a line or zone event (Unix seconds).");
  lines.push("# TYPE framewise_pipeline_last_event_timestamp_seconds gauge");
  for (const { row } of fresh) if (row.last_event_at) lines.push(`framewise_pipeline_last_event_timestamp_seconds{${labelsOf(row)}} ${row.last_event_at.getTime() / 1000}`);
  res
    .status(200)
    .set({ "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" })
    .send(`${lines.join("\n")}\n`);
}
