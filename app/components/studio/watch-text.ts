// What the camera card says about "Watch with local vision" (issue 30): nothing while off; on, whether the server
// runs it yet, and the running pipeline's figures (the same the server's /metrics gives).
import type { PipelineStats, Watch } from "#app/schemas/watch";
import { relativeTime } from "./automation/monitor-text";

/** "5.0 fps · detector 2.1 fps, 210 ms · 3 dropped · CPU 45 %". */
export function describeStats(stats: PipelineStats): string {
  return `${stats.decodeFps.toFixed(1)} fps · detector ${stats.detectFps.toFixed(1)} fps, ${Math.round(stats.detectorMs)} ms · ${stats.droppedFrames} dropped · CPU ${Math.round(stats.cpuPercent)} %`;
}

/** The card's lines for a watch, or null when off; `reasonText` words a stalled stream's reason as the card does. */
export function watchLines(watch: Watch, now: number, reasonText: (reason: string) => string): string[] | null {
  if (watch.status === "off") return null;
  const lastEvent = watch.lastEventAt ? [`last event ${relativeTime(watch.lastEventAt, now)}`] : [];
  if (watch.status === "stalled") return [`Watching: stalled — ${watch.stats?.reason ? reasonText(watch.stats.reason) : "no frames from the camera"}`, ...lastEvent];
  if (watch.status === "running" && watch.stats) return ["Watching with local vision", describeStats(watch.stats), ...lastEvent];
  return ["Watching: waiting for the server…", ...lastEvent];
}
