// `npm run bench -- local-vision`: the on-device detector (bench/local-vision-detector.ts); the tracker, zones and
// lines and the cloud-call comparison join this group from their own modules.
import { runLocalVisionDetectorBenchmarks } from "./local-vision-detector";

export async function runLocalVisionBenchmarks(): Promise<string> {
  return [await runLocalVisionDetectorBenchmarks()].join("\n\n");
}
