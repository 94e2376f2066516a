// `npm run bench -- pipeline`: the server's always-on local-vision pipeline (issue 30), one file per part.
import { runPipelineAppBenchmarks } from "./pipeline-app";
import { runPipelineDetectorBenchmarks } from "./pipeline-detector";

export async function runPipelineBenchmarks(): Promise<string> {
  return ["## Local vision on the server: the pipeline", await runPipelineDetectorBenchmarks(), await runPipelineAppBenchmarks()].join("\n\n");
}
