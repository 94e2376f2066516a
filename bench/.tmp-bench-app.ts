import { runPipelineAppBenchmarks } from "/work/main/bench/pipeline-app";
console.log(await runPipelineAppBenchmarks());
process.exit(0);
