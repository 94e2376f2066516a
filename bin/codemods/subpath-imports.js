#!/usr/bin/env node
// Rewrites relative imports that climb out of their top-level folder (`../../../server/http/api` in app/routes) into the
// subpath aliases of package.json "imports" (`#server/http/api`), the one list this reads. Imports inside a folder stay
// relative. Covers import/export declarations, import() (also in types) and vi.mock()/vi.importActual(); found with the
// TypeScript parser, so strings and comments that merely look like paths are left alone.
// Usage: node bin/codemods/subpath-imports.js [--dry-run] [--deep N]   (prints what it changed, or would change)
//   --deep N: also rewrite imports inside a folder that climb N or more levels (`../../../studio/ai/x` in
//   app/components/studio/ai with N = 3).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Top-level folder → alias prefix, from entries like "#server/*": "./server/*". */
export function aliasesFrom(imports) {
  const aliases = new Map();
  for (const [key, target] of Object.entries(imports ?? {})) {
    const match = /^(#[^/]+)\/\*$/.exec(key);
    const folder = typeof target === "string" ? /^\.\/([^/]+)\/\*$/.exec(target) : null;
    if (match && folder) aliases.set(folder[1], match[1]);
  }
  return aliases;
}

/** The alias form of `specifier` imported from `file` (both relative to the repo root), or null to leave it. */
export function rewriteSpecifier(file, specifier, aliases, deep = Infinity) {
  if (!specifier.startsWith("../")) return null;
  const [fromTop] = file.split("/");
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  const [toTop, ...rest] = target.split("/");
  if (toTop === ".." || !aliases.has(toTop)) return null;
  if (toTop === fromTop && specifier.split("/").filter((part) => part === "..").length < deep) return null;
  return `${aliases.get(toTop)}/${rest.length ? rest.join("/") : "index"}`;
}

const MOCKS = new Set(["mock", "doMock", "unmock", "importActual", "importMock"]);

function specifierNodes(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isMock = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "vi" && MOCKS.has(callee.name.text);
      if (isImport || isMock) found.push(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file's text with its climbing imports rewritten, and how many it rewrote. */
export function rewriteFile(file, text, aliases, deep = Infinity) {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const edits = specifierNodes(source)
    .map((node) => ({ node, to: rewriteSpecifier(file, node.text, aliases, deep) }))
    .filter((edit) => edit.to !== null)
    .sort((a, b) => b.node.getStart(source) - a.node.getStart(source));
  let out = text;
  for (const { node, to } of edits) {
    const start = node.getStart(source) + 1; // inside the quotes, which stay as they were
    out = out.slice(0, start) + to + out.slice(node.getEnd() - 1);
  }
  return { text: out, count: edits.length };
}

function main() {
  const dryRun = process.argv.includes("--dry-run");
  const deepAt = process.argv.indexOf("--deep");
  const deep = deepAt > 0 ? Number(process.argv[deepAt + 1]) : Infinity;
  if (!(deep >= 1)) throw new Error("--deep takes a number of levels, e.g. --deep 3");
  const aliases = aliasesFrom(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).imports);
  if (!aliases.size) throw new Error('package.json has no "imports" like "#app/*": "./app/*"');
  const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.js", "*.mjs"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.includes("/") && !file.startsWith("assembly/"));
  let lines = 0;
  let changed = 0;
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const result = rewriteFile(file, text, aliases, deep);
    if (!result.count) continue;
    lines += result.count;
    changed++;
    if (!dryRun) writeFileSync(path.join(root, file), result.text);
  }
  console.log(`${dryRun ? "Would rewrite" : "Rewrote"} ${lines} imports in ${changed} files (aliases: ${[...aliases].map(([dir, alias]) => `${alias}/* → ${dir}/`).join(", ")})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
