// `npm run bench -- local-vision`: the on-device detector (bench/local-vision-detector.ts) and the tracker, zones and
// lines (bench/local-vision-tracker.ts); the cloud-call comparison joins this group from its own module.
import { runLocalVisionDetectorBenchmarks } from "./local-vision-detector";
import { runLocalVisionTrackerBenchmarks } from "./local-vision-tracker";

export async function runLocalVisionBenchmarks(): Promise<string> {
  return [await runLocalVisionDetectorBenchmarks(), await runLocalVisionTrackerBenchmarks()].join("\n\n");
}
