import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ModelJson, weightBytes } from "./model-manifest";

const models = path.join(path.dirname(path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human"))), "models");

describe("weightBytes", () => {
  it("sizes CenterNet's weight file exactly from its manifest (float16-quantised and int32 weights)", () => {
    const manifest = JSON.parse(readFileSync(path.join(models, "centernet.json"), "utf8")) as ModelJson;
    expect(weightBytes(manifest)).toBe(statSync(path.join(models, "centernet.bin")).size);
  });

  it("counts unquantised float32 weights at 4 bytes and uint8-quantised ones at 1", () => {
    const manifest: ModelJson = {
      weightsManifest: [
        {
          paths: ["a.bin"],
          weights: [
            { shape: [2, 3], dtype: "float32" },
            { shape: [10], dtype: "float32", quantization: { dtype: "uint8" } },
          ],
        },
      ],
    };
    expect(weightBytes(manifest)).toBe(2 * 3 * 4 + 10);
  });
});
