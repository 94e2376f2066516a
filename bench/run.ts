// `npm run bench`: every benchmark in one run, printed as one markdown report (also saved to bench/REPORT.md).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "../bin/ensure-build.js";
import { runFoundationBenchmarks } from "./foundation";
import { runImageCoreBenchmarks } from "./image-core";
import { machine } from "./lib";
import { runMarketingBenchmarks } from "./marketing";
import { runStudioBenchmarks } from "./studio";
import { runStudioDataBenchmarks } from "./studio-data";
import { runVisionBenchmarks } from "./vision";

ensureBuild();
const sections = [
  await runFoundationBenchmarks(),
  await runMarketingBenchmarks(),
  await runStudioDataBenchmarks(),
  await runStudioBenchmarks(),
  await runVisionBenchmarks(),
  await runImageCoreBenchmarks(),
];
const report = [`# Framewise benchmark report`, "", `Run ${new Date().toISOString()} on ${machine()}.`, "", ...sections].join("\n\n");
console.log(report);
writeFileSync(path.join(import.meta.dirname, "REPORT.md"), `${report}\n`);
