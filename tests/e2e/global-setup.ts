// Playwright global setup: a fresh PostgreSQL and the production server on E2E_PORT, stopped afterwards.
import { startApp, startTestPostgres, tempDir } from "../support/stack";

export default async function globalSetup() {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase("framewise_e2e");
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("e2e"), PORT: process.env.E2E_PORT ?? "3199" });
  // The suite's first account is the admin; tests sign in with these credentials when they need one.
  const response = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "e2e_admin", password: "e2e-admin-password" }),
  });
  if (response.status !== 201) throw new Error(`could not create the e2e admin: ${response.status}`);
  return async () => {
    await app.stop();
    await pg.stop();
  };
}
