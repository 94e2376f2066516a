import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { peopleCounterModule } from "./app/modules/people-counter/vite-plugin";

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle's entry is our Node server, which imports the React Router build virtually.
  // It keeps its own assets (ssrEmitAssets): the server reads the image core's .wasm from beside itself.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" }, target: "node20", ssrEmitAssets: true } : { target: "es2022" },
  // Module workers: the image-core worker shares chunks (Comlink, the core) with the app.
  worker: { format: "es" },
  plugins: [tailwindcss(), reactRouter(), peopleCounterModule()],
}));
