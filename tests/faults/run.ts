// `npm run test:faults [-- provider postgres kill disk]`: injects faults into a real stack (production server,
// embedded PostgreSQL, the fake Moondream, the real blob directory) and reports what was injected, what the app
// answered and what was lost. Target: every check met and nothing acknowledged lost. Exits non-zero otherwise.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { loadAverage, machineLine, table } from "../load/lib";
import { ROOT } from "../support/stack";
import { fullDisk } from "./full-disk";
import { sigkillDuringUploads } from "./kill";
import { postgresRestart } from "./postgres-restart";
import { providerFaults } from "./provider";
import type { Section } from "./report";

const SCENARIOS: Record<string, () => Promise<Section>> = {
  provider: providerFaults,
  postgres: postgresRestart,
  kill: sigkillDuringUploads,
  disk: fullDisk,
};

const chosen = process.argv.slice(2).filter((name) => name in SCENARIOS);
const names = chosen.length ? chosen : Object.keys(SCENARIOS);
// A bound on the whole run, whatever hangs.
const watchdog = setTimeout(() => {
  console.error("test:faults did not finish within 10 minutes");
  process.exit(2);
}, 600_000);
watchdog.unref();

const sections: Section[] = [];
for (const name of names) {
  const started = performance.now();
  try {
    const section = await SCENARIOS[name]!();
    section.notes.push(`Took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    sections.push(section);
  } catch (error) {
    sections.push({
      title: name,
      checks: [{ injected: name, expected: "the scenario runs to its end", observed: `it threw: ${(error as Error).stack ?? String(error)}`, ok: false }],
      lost: 0,
      notes: [],
    });
  }
  console.error(`fault scenario ${name} done`);
}

const failed = sections.flatMap((s) => s.checks.filter((c) => !c.ok));
const lost = sections.reduce((sum, s) => sum + s.lost, 0);
const report = [
  "# Fault injection (`npm run test:faults`)",
  "",
  `${new Date().toISOString()}. Machine: ${machineLine()}; load average at the end ${loadAverage()}.`,
  "",
  table(
    ["measure", "figure", "target"],
    [
      [
        "checks met",
        `${sections.reduce((n, s) => n + s.checks.length, 0) - failed.length} of ${sections.reduce((n, s) => n + s.checks.length, 0)}`,
        `all ${failed.length === 0 ? "✅ met" : "❌ missed"}`,
      ],
      ["acknowledged writes lost", lost, `0 ${lost === 0 ? "✅ met" : "❌ missed"}`],
    ],
  ),
  ...sections.flatMap((s) => [
    "",
    `## ${s.title}`,
    "",
    ...(s.skipped ? [`Skipped: ${s.skipped}`, ""] : []),
    table(
      ["injected", "expected", "observed", "result"],
      s.checks.map((c) => [c.injected, c.expected, c.observed.replace(/\|/g, "\\|").replace(/\n/g, " "), c.ok ? "✅" : "❌"]),
    ),
    "",
    `Acknowledged writes lost: ${s.lost}.`,
    ...s.notes.map((note) => `${note}`),
  ]),
].join("\n");

console.log(report);
if (!chosen.length) writeFileSync(path.join(ROOT, "bench/FAULTS.md"), `${report}\n`);
clearTimeout(watchdog);
process.exit(failed.length === 0 && lost === 0 ? 0 : 1);
