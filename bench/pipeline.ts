// `npm run bench -- pipeline`: issue 30's server pipeline, each figure beside its baseline in the same run.
import { runPipelineIdleBenchmark } from "./pipeline-idle";

export async function runPipelineBenchmarks(): Promise<string> {
  return ["## Server pipeline (local vision on every IP camera)", await runPipelineIdleBenchmark()].join("\n\n");
}
