// Playwright global setup: the fake Moondream, a fresh PostgreSQL and the production server on E2E_PORT
// (pointed at the fake), stopped afterwards; and the picture the fake webcam shows.
import { FAKE_CAMERA_FILE } from "../../playwright.config";
import { startFakeMoondream } from "../fakes/moondream/server";
import { startApp, startTestPostgres, tempDir } from "../support/stack";
import { testCameraPicture, writeY4m } from "../support/y4m";

/** The app's shared Moondream key in the browser tests (the fake accepts any key). */
export const E2E_SHARED_KEY = "e2e-shared-key";

export default async function globalSetup() {
  await writeY4m(FAKE_CAMERA_FILE, await testCameraPicture(), 640, 480);
  const fake = await startFakeMoondream();
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase("framewise_e2e");
  const dataDir = tempDir("e2e");
  const env = { DATABASE_URL: databaseUrl, MOONDREAM_ENDPOINT: fake.url, MOONDREAM_API_KEY: E2E_SHARED_KEY };
  // Webhooks keep the default public-only policy except for 127.0.0.2, the one loopback address the Automate
  // test may save (and fail to deliver to); 127.0.0.1 stays refused, as on any server.
  const app = await startApp({
    ...env,
    DATA_DIR: dataDir,
    PORT: process.env.E2E_PORT ?? "3199",
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    WEBHOOK_ALLOWED_CIDRS: "127.0.0.2/32",
    // A web-only process: the watch specs write the pipeline's figures themselves; the one that needs a real
    // pipeline (studio-watch-live.spec.ts) starts an app of its own.
    LOCAL_VISION_PIPELINES: "false",
  });
  // Workers inherit these: a second app server of the same deployment, the fake's script, and seeding
  // data through services no route exposes (tests/e2e/seed.ts).
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_MOONDREAM_ENDPOINT = fake.url;
  // The suite's first account, made from this machine, is the admin; tests sign in with these credentials when they need one.
  const response = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "e2e_admin", password: "e2e-admin-password" }),
  });
  if (response.status !== 201) throw new Error(`could not create the e2e admin: ${response.status}`);
  return async () => {
    await app.stop();
    await pg.stop();
    await fake.close();
  };
}
