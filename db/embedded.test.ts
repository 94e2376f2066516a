// Start-up failures of the embedded PostgreSQL are one sentence naming what to change, never a stack or an
// unhandled 'error' event.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { freePort, tempDir } from "../tests/support/stack";
import { EmbeddedPostgresError, startEmbeddedPostgres } from "./embedded";

const asRoot = process.getuid?.() === 0;
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function expectOneSentence(error: unknown, ...mentions: string[]) {
  expect(error).toBeInstanceOf(EmbeddedPostgresError);
  const { message } = error as Error;
  expect(message).not.toContain("\n");
  expect(message).toMatch(/\.$/);
  for (const mention of mentions) expect(message).toContain(mention);
}

it(
  asRoot
    ? "says which folder the postgres user cannot enter and to set DATA_DIR when there is nowhere reachable to keep the cluster"
    : "says which folder cannot be used and to set DATA_DIR when the data directory is out of reach",
  async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), "framewise-blocked-")); // mode 0700
    cleanups.push(() => {
      chmodSync(parent, 0o700);
      rmSync(parent, { recursive: true, force: true });
    });
    const blockedRoot = path.join(parent, "not-a-folder");
    writeFileSync(blockedRoot, ""); // the relocation root cannot be made under a file
    if (!asRoot) chmodSync(parent, 0); // out of reach for its owner too
    const error = await startEmbeddedPostgres({ dir: path.join(parent, "data", "postgres"), port: await freePort(), relocationRoot: blockedRoot }).catch((e: unknown) => e);
    expectOneSentence(error, asRoot ? `cannot enter ${parent} (mode 0700, owner root)` : path.join(parent, "data"), "DATA_DIR=");
  },
);

it("says the port is taken and to set EMBEDDED_POSTGRES_PORT when another program holds it", async () => {
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  const port = (squatter.address() as net.AddressInfo).port;
  const dir = tempDir("pg-port");
  cleanups.push(() => {
    squatter.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const error = await startEmbeddedPostgres({ dir: path.join(dir, "postgres"), port }).catch((e: unknown) => e);
  expectOneSentence(error, String(port), "EMBEDDED_POSTGRES_PORT");
}, 60_000);
