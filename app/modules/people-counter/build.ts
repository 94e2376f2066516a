// Builds people-counter.html: main.ts bundled by esbuild and inlined into template.html, so the module
// is one self-contained file that works opened from disk (no imports, no network but Moondream).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEOPLE_COUNTER_SOURCES = ["main.ts", "stats.ts", "template.html", "build.ts"].map((f) => path.join(here, f));

export async function buildPeopleCounter(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(here, "main.ts")],
    bundle: true,
    write: false,
    format: "iife",
    target: "es2020",
    minify: true,
    legalComments: "none",
  });
  // "</script" inside the bundle would end the inline script early.
  const script = result.outputFiles[0]!.text.replace(/<\/script/gi, "<\\/script");
  const template = await readFile(path.join(here, "template.html"), "utf8");
  return template.replace("/*PEOPLE_COUNTER_SCRIPT*/", () => script);
}
