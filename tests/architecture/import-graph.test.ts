// The house's shape, type imports included (ESLint's import-x/no-cycle skips those): no module imports itself back
// through others in app/ or server/, and the top-level folders of server/ and of app/studio/ form layers, so each
// import between two of them runs one way only (docs/architecture.md, "Rules and what keeps them").
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ALIASES: Record<string, string> = { "#app/": "app/", "#server/": "server/", "#db/": "db/" };
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^;'"]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  let target: string;
  if (alias) target = ALIASES[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith(".")) target = path.join(path.dirname(from), specifier);
  else return null;
  const stem = target.replace(/\.js$/, "");
  for (const candidate of [target, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`]) {
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Every file's imports of other files under `dir` (value and type imports alike). */
function importGraph(dir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(dir)) {
    const targets = new Set<string>();
    for (const match of readFileSync(path.join(ROOT, file), "utf8").matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2] ?? "");
      if (target && target !== file && target.startsWith(`${dir}/`)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one node (Tarjan): each is a circle of imports. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The graph between the top-level folders of `dir` (files directly in `dir` left out: they compose the folders). */
function folderGraph(dir: string, files: Map<string, Set<string>>): Map<string, Set<string>> {
  const folderOf = (file: string) => {
    const parts = path.relative(dir, file).split(path.sep);
    return parts.length > 1 ? parts[0]! : null;
  };
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

describe("the import graph", () => {
  it("finds a circle when there is one (the checker itself)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c"]]);
  });

  it.each(["server", "app", "db"])("has no circle of imports in %s/, type imports included", (dir) => {
    expect(circles(importGraph(dir))).toEqual([]);
  });

  it("runs one way between server/'s folders: domains emit events down, listeners sit above them", () => {
    expect(circles(folderGraph("server", importGraph("server")))).toEqual([]);
  });

  it("runs one way between app/studio's feature folders: frames below cameras, capture, local vision, AI, PTZ", () => {
    expect(circles(folderGraph("app/studio", importGraph("app/studio")))).toEqual([]);
  });
});
