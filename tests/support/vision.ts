// A vision test stack: the fake Moondream plus an app process pointed at it, on the shared database (so
// the shared app, without a Moondream endpoint, serves as "another app server" of the same deployment).
import { inject } from "vitest";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { markerImage, row, toDataUrl } from "../fakes/moondream/images";
import { startApp, tempDir, type TestApp } from "./stack";

export const SHARED_KEY = "shared-test-key";

export interface VisionStack {
  app: TestApp;
  fake: FakeMoondream;
  url: string;
  stop(): Promise<void>;
}

export async function startVisionStack(env: Record<string, string> = {}, fake?: FakeMoondream): Promise<VisionStack> {
  const ownFake = fake ?? (await startFakeMoondream());
  const app = await startApp({
    DATABASE_URL: inject("databaseUrl"),
    DATABASE_POOL_SIZE: "5",
    DATA_DIR: tempDir("vision"),
    MOONDREAM_ENDPOINT: ownFake.url,
    MOONDREAM_API_KEY: SHARED_KEY,
    // Pacing is unit-tested; here it would only slow the concurrency tests down.
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    // Generous: 200 concurrent calls on a loaded 2-core machine must not time out (the hang test sets its own).
    MOONDREAM_TIMEOUT_MS: "15000",
    MOONDREAM_MAX_RETRIES: "1",
    ...env,
  });
  return {
    app,
    fake: ownFake,
    url: app.url,
    async stop() {
      await app.stop();
      if (!fake) await ownFake.close();
    },
  };
}

/** A small frame with 2 red, 1 blue and 1 green markers (the fake reads scores and counts from them). */
export async function markerFrame(markers = [...row("red", 2, 0.1), ...row("blue", 1, 0.45), ...row("green", 1, 0.75)]): Promise<string> {
  return toDataUrl(await markerImage({ markers }));
}
