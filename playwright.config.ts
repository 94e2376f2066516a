import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "./tests/support/chromium";

const port = Number(process.env.E2E_PORT ?? 3199);
/** Written by the global setup: the picture the fake webcam shows (see tests/support/y4m.ts). */
export const FAKE_CAMERA_FILE = path.join(os.tmpdir(), `framewise-fake-camera-${port}.y4m`);

/** The studio's specs by file name (matched on the whole path, so a folder named "studio…" must not count). */
const STUDIO_SPECS = /\/studio[^/]*\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // CI (.ci/run sets CI=1) gives a failed browser test one more try: on 2 shared cores a timing race in
  // a browser can sink an otherwise green run. A test that passes only on its retry is still reported
  // as "flaky" by name in the summary, and is a bug to chase, not a pass to forget.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright never downloads a browser here.
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: "desktop", testIgnore: STUDIO_SPECS, use: { ...devices["Desktop Chrome"] } },
    // The public site is mostly visited on phones: its specs run again on a phone-sized touch screen.
    { name: "mobile", use: { ...devices["Pixel 7"] }, testMatch: /marketing.*\.spec\.ts$/ },
    {
      name: "studio",
      testMatch: STUDIO_SPECS,
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1440, height: 900 },
        permissions: ["camera"],
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(FAKE_CAMERA_FILE)],
        },
      },
    },
  ],
});
