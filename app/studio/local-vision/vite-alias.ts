// Lets Vite import the local detector's weights and tfjs's .wasm files as hashed `?url` assets: neither
// package exports those paths, so `@vladmandic/human/models/…` and `@tensorflow/tfjs-backend-wasm/dist/…`
// are pointed at the installed packages' folders (found through Node's resolution, wherever npm put them).
// Used by vite.config.ts and by the browser-test harness build.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const humanDir = path.dirname(path.dirname(require.resolve("@vladmandic/human")));
const tfjsWasmDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));

export const localVisionAliases = [
  { find: /^@vladmandic\/human\/models\//, replacement: `${path.join(humanDir, "models")}/` },
  { find: /^@tensorflow\/tfjs-backend-wasm\/dist\//, replacement: `${tfjsWasmDir}/` },
];
