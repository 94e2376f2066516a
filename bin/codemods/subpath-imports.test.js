// The subpath-imports codemod rewrites exactly the imports that leave their top-level folder, and the aliases it
// writes resolve the same everywhere: package.json "imports" (Node, tsx, Vite, Vitest) and tsconfig "paths" (tsc,
// Playwright) must list the same folders.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aliasesFrom, rewriteFile, rewriteSpecifier } from "./subpath-imports.js";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const tsconfig = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8"));
const aliases = aliasesFrom(pkg.imports);

describe("subpath aliases", () => {
  it("are the same in package.json imports and tsconfig paths", () => {
    expect(aliases.size).toBeGreaterThan(0);
    const paths = Object.fromEntries(Object.entries(pkg.imports).map(([key, target]) => [key, [target]]));
    expect(tsconfig.compilerOptions.paths).toEqual(paths);
  });
});

describe("rewriteSpecifier", () => {
  it("rewrites an import that climbs into another top-level folder", () => {
    expect(rewriteSpecifier("app/routes/api/alerts.ts", "../../../server/http/api", aliases)).toBe("#server/http/api");
    expect(rewriteSpecifier("app/root.tsx", "../db/index", aliases)).toBe("#db/index");
    expect(rewriteSpecifier("tests/e2e/image-core.spec.ts", "../../app/image/core", aliases)).toBe("#app/image/core");
    expect(rewriteSpecifier("server/x.ts", "../db", aliases)).toBe("#db/index");
    expect(rewriteSpecifier("bench/image-core.ts", "../app/image/wasm/image-core.wasm?url", aliases)).toBe("#app/image/wasm/image-core.wasm?url");
  });

  it("leaves imports inside the folder, to unaliased folders, and packages alone", () => {
    expect(rewriteSpecifier("app/routes/api/alerts.ts", "../../lib/brand", aliases)).toBeNull();
    expect(rewriteSpecifier("app/routes/api/alerts.ts", "./alerts.rules", aliases)).toBeNull();
    expect(rewriteSpecifier("bench/run.ts", "../tests/fakes/moondream/server", aliases)).toBeNull();
    expect(rewriteSpecifier("tests/e2e/a.spec.ts", "../../playwright.config", aliases)).toBeNull();
    expect(rewriteSpecifier("server/x.ts", "zod", aliases)).toBeNull();
  });

  it("with a depth, also rewrites imports inside a folder that climb that far", () => {
    const file = "app/components/studio/ai/ai-tab.tsx";
    expect(rewriteSpecifier(file, "../../../studio/ai/ai-settings", aliases)).toBeNull();
    expect(rewriteSpecifier(file, "../../../studio/ai/ai-settings", aliases, 3)).toBe("#app/studio/ai/ai-settings");
    expect(rewriteSpecifier(file, "../../ui/button", aliases, 3)).toBeNull();
  });
});

describe("rewriteFile", () => {
  it("rewrites declarations, import(), import types and vi.mock, keeping quotes; strings and comments stay", () => {
    const before = [
      `import { db } from "../../db/index";`,
      `export { x } from '../../app/lib/brand';`,
      `type T = typeof import("../../db/schema");`,
      `const m = await import("../../server/config");`,
      `vi.mock("../../server/logger");`,
      `// see "../../server/config"`,
      `const p = "../../server/config";`,
      `import { y } from "./y";`,
    ].join("\n");
    const { text, count } = rewriteFile("tests/integration/a.test.ts", before, aliases);
    expect(count).toBe(5);
    expect(text.split("\n")).toEqual([
      `import { db } from "#db/index";`,
      `export { x } from '#app/lib/brand';`,
      `type T = typeof import("#db/schema");`,
      `const m = await import("#server/config");`,
      `vi.mock("#server/logger");`,
      `// see "../../server/config"`,
      `const p = "../../server/config";`,
      `import { y } from "./y";`,
    ]);
  });
});
