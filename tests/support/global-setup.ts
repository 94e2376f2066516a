// Vitest global setup: one PostgreSQL and one app server shared by the integration suites.
import type { TestProject } from "vitest/node";
import { startApp, startTestPostgres, tempDir } from "./stack";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    postgresAdminUrl: string;
    /** The shared app's DATA_DIR (its blobs are under DATA_DIR/blobs). */
    dataDir: string;
    /** The shared database's first account, made from this machine, which is therefore its admin. */
    admin: { username: string; password: string };
  }
}

export default async function setup(project: TestProject) {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase("framewise_shared");
  const dataDir = tempDir("data");
  // PTZ tests drive fake cameras on loopback at random ports, which the default camera networks and ports refuse.
  // framewise.example: the public name the marketing suite sends through a trusted proxy, as an operator lists it.
  const app = await startApp({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    ALLOWED_HOSTS: "framewise.example",
  });
  const admin = { username: "founding_admin", password: "founding-admin-password" };
  const signup = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  });
  if (signup.status !== 201) throw new Error(`could not create the founding admin: ${signup.status}`);
  project.provide("admin", admin);
  project.provide("baseUrl", app.url);
  project.provide("dataDir", dataDir);
  project.provide("databaseUrl", databaseUrl);
  project.provide("postgresAdminUrl", pg.urlFor("postgres"));
  return async () => {
    await app.stop();
    await pg.stop();
  };
}
