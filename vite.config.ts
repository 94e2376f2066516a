import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { peopleCounterModule } from "./app/modules/people-counter/vite-plugin.ts";
import { localVisionAliases } from "./app/studio/local-vision/vite-alias.ts";

// Rolldown's report of slow plugin callbacks is advice for plugin authors, printed by a build on a busy machine; it
// tells someone starting the app nothing.
const checks = { bundlerTimings: false };

/**
 * The detector pool's threads start from an entry of their own beside the server's: build/server/detector-thread.js
 * (server/local-detector/pool/detector-pool.ts). Emitted with its file name fixed, as React Router names every entry
 * of the server build index.js.
 */
function detectorThreadEntry(): Plugin {
  return {
    name: "framewise:detector-thread",
    apply: "build",
    buildStart() {
      this.emitFile({ type: "chunk", id: "./server/local-detector/pool/detector-thread.ts", fileName: "detector-thread.js" });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle's entry is our Node server, which imports the React Router build virtually.
  // It keeps its own assets (ssrEmitAssets): the server reads the image core's .wasm from beside itself.
  build: isSsrBuild ? { rolldownOptions: { input: "./server/app.ts", checks }, target: "node20", ssrEmitAssets: true } : { target: "es2022", rolldownOptions: { checks } },
  // `npm run dev`: find every dependency the pages import before the first page loads. Left to discover them on
  // the first visit, Vite bundles the late ones and reloads the page, failing the import it had in flight.
  optimizeDeps: { entries: ["./app/entry.client.tsx", "./app/root.tsx", "./app/routes/**/*.tsx"] },
  // The local detector's weights and tfjs's .wasm files, imported with `?url` as hashed assets.
  resolve: { alias: localVisionAliases },
  // Module workers: the image-core worker shares chunks (Comlink, the core) with the app.
  worker: { format: "es" },
  plugins: [tailwindcss(), reactRouter(), peopleCounterModule(), isSsrBuild && detectorThreadEntry()],
}));
