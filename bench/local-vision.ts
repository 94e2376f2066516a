// `npm run bench -- local-vision`: the on-device detector (bench/local-vision-detector.ts), the tracker, zones and
// lines (bench/local-vision-tracker.ts), and the cloud calls of a scripted scene (bench/local-vision-calls.ts).
import { runLocalVisionCallsBenchmarks } from "./local-vision-calls";
import { runLocalVisionDetectorBenchmarks } from "./local-vision-detector";
import { runLocalVisionTrackerBenchmarks } from "./local-vision-tracker";

export async function runLocalVisionBenchmarks(): Promise<string> {
  return [await runLocalVisionDetectorBenchmarks(), await runLocalVisionTrackerBenchmarks(), await runLocalVisionCallsBenchmarks()].join("\n\n");
}
