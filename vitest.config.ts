import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "db/**/*.test.ts",
      "bin/**/*.test.js",
      "tests/integration/**/*.test.ts",
      "tests/security/**/*.test.ts",
      "tests/architecture/**/*.test.ts",
      "tests/fakes/**/*.test.ts",
    ],
    globalSetup: ["tests/support/wasm-setup.ts", "tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: a couple of files at a time keeps the app server responsive.
    maxWorkers: 2,
  },
});
