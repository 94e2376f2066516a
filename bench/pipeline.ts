// `npm run bench -- pipeline`: issue 30's server pipeline, one file per part, each figure beside its baseline in the same run.
import { runPipelineAppBenchmarks } from "./pipeline-app";
import { runPipelineDetectorBenchmarks } from "./pipeline-detector";
import { runPipelineIdleBenchmark } from "./pipeline-idle";

export async function runPipelineBenchmarks(): Promise<string> {
  return ["## Server pipeline (local vision on every IP camera)", await runPipelineIdleBenchmark(), await runPipelineDetectorBenchmarks(), await runPipelineAppBenchmarks()].join(
    "\n\n",
  );
}
