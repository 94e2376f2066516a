// `npm run bench`: every benchmark in one run, printed as one markdown report (also saved to bench/REPORT.md).
// `npm run bench -- vision studio` runs only the named groups and prints without touching REPORT.md.
import "./loopback-cameras";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "../bin/ensure-build.js";
import { runAccuracyBenchmarks } from "./accuracy";
import { runAutomationBenchmarks } from "./automation";
import { runCamerasBenchmarks } from "./cameras";
import { runFoundationBenchmarks } from "./foundation";
import { runImageCoreBenchmarks } from "./image-core";
import { runInsightsBenchmarks } from "./insights";
import { runTimelineBenchmarks } from "./timeline";
import { machine } from "./lib";
import { runLocalVisionBenchmarks } from "./local-vision";
import { runMarketingBenchmarks } from "./marketing";
import { runPipelineBenchmarks } from "./pipeline";
import { runPtzBenchmarks } from "./ptz";
import { runScaleBenchmarks } from "./scale";
import { runSearchBenchmarks } from "./search";
import { runStudioBenchmarks } from "./studio";
import { runStudioAiBenchmarks } from "./studio-ai";
import { runStudioDataBenchmarks } from "./studio-data";
import { APP_DEFAULTS } from "../tests/support/stack";
import { runVisionBenchmarks } from "./vision";

const groups: Record<string, () => Promise<string>> = {
  foundation: runFoundationBenchmarks,
  marketing: runMarketingBenchmarks,
  "studio-data": runStudioDataBenchmarks,
  studio: runStudioBenchmarks,
  "studio-ai": runStudioAiBenchmarks,
  vision: runVisionBenchmarks,
  "image-core": runImageCoreBenchmarks,
  ptz: runPtzBenchmarks,
  automation: runAutomationBenchmarks,
  cameras: runCamerasBenchmarks,
  "local-vision": runLocalVisionBenchmarks,
  accuracy: runAccuracyBenchmarks,
  pipeline: runPipelineBenchmarks,
  insights: runInsightsBenchmarks,
  // Alone, it also measures the issue's other fast paths (their groups' code); in a full run those groups do.
  scale: () => runScaleBenchmarks({ withOtherFigures: chosen.length > 0 }),
  // Issue 32's figures: library search over 100,000 photos, then the timeline over 1,000,000 events.
  search: async () => `${await runSearchBenchmarks()}\n\n${await runTimelineBenchmarks()}`,
};
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in groups));
if (unknown.length) throw new Error(`unknown benchmark group ${unknown.join(", ")}; groups: ${Object.keys(groups).join(", ")}`);

ensureBuild();
// Benchmarks measure what production runs: no answer checks against the schemas (tests/support/stack.ts).
APP_DEFAULTS.API_RESPONSE_CHECKS = undefined;
const sections: string[] = [];
for (const name of chosen.length ? chosen : Object.keys(groups)) sections.push(await groups[name]!());
const report = [`# Framewise benchmark report`, "", `Run ${new Date().toISOString()} on ${machine()}.`, "", ...sections].join("\n\n");
console.log(report);
if (!chosen.length) writeFileSync(path.join(import.meta.dirname, "REPORT.md"), `${report}\n`);
