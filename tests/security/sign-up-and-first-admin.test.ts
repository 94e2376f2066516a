// Sign-ups per address and the first administrator, on an app of its own with a fresh database and the default
// sign-up limit. Other machines are simulated with X-Forwarded-For (the app trusts its loopback proxy); a
// request without it, to 127.0.0.1, comes from this machine.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, uniqueIp, uniqueUsername } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

const SIGNUPS_PER_HOUR = 5; // SIGNUP_MAX_PER_IP_PER_HOUR's default
const INVALID_TOKEN = /That setup token is not valid/;

let app: TestApp;
let sql: postgres.Sql;

beforeAll(async () => {
  const databaseUrl = await createOwnDatabase();
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("first-admin"), SIGNUP_MAX_PER_IP_PER_HOUR: undefined });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await sql?.end();
});

/** The start-up warning names the token (written just after the "listening" line, so it may still be on its way). */
function setupTokenFromLog(): Promise<string> {
  return vi.waitFor(
    () => {
      const found = /"setupToken":"([^"]+)"/.exec(app.logs.join("\n"));
      if (!found) throw new Error("no setup token in the server log yet");
      return found[1]!;
    },
    { timeout: 10_000, interval: 50 },
  );
}

function apiSignUp(body: Record<string, string>, ip?: string) {
  const client = new Client(app.url, ip ? { "x-forwarded-for": ip } : {});
  return { client, response: client.post("/api/auth/signup", { username: uniqueUsername("su"), password: "secret-123", ...body }) };
}

function formSignUp(fields: Record<string, string>, ip: string) {
  const client = new Client(app.url, { "x-forwarded-for": ip });
  const username = uniqueUsername("form");
  const response = client.request("POST", "/signup", {
    body: new URLSearchParams({ username, password: "secret-123", confirmPassword: "secret-123", ...fields }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
  });
  return { client, username, response };
}

async function roleOf(client: Client): Promise<string> {
  return ((await (await client.get("/api/auth/me")).json()) as { role: string }).role;
}

async function adminCount(): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from users where role = 'admin'`;
  return row!.n;
}

describe("the first administrator", () => {
  it("is not whoever signs up first from another machine: that is an ordinary account", async () => {
    const page = await new Client(app.url, { "x-forwarded-for": uniqueIp() }).get("/signup");
    expect(await page.text(), "the sign-up page offers the setup token field").toMatch(/name="setupToken"/);
    const { client, response } = apiSignUp({}, uniqueIp());
    expect((await response).status).toBe(201);
    expect(await roleOf(client)).toBe("user");
    expect(await adminCount()).toBe(0);
  });

  it("refuses a wrong setup token under its field, on the API and the form without JavaScript, creating nothing", async () => {
    await setupTokenFromLog();
    const { response } = apiSignUp({ setupToken: "not-the-token" }, uniqueIp());
    const refused = await response;
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((await refused.json()).errors.setupToken[0]).toMatch(INVALID_TOKEN);

    const form = formSignUp({ setupToken: "not-the-token" }, uniqueIp());
    const answer = await form.response;
    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(INVALID_TOKEN);
    expect(await sql`select 1 from users where username = ${form.username}`).toHaveLength(0);
  });

  it("is made by a sign-up from another machine with the setup token printed in the log, once", async () => {
    const token = await setupTokenFromLog();
    const form = formSignUp({ setupToken: token }, uniqueIp());
    const answer = await form.response;
    expect(answer.status).toBe(302);
    expect(await roleOf(form.client)).toBe("admin");
    // Used up: it makes no second administrator, and the page stops offering the field.
    const again = await apiSignUp({ setupToken: token }, uniqueIp()).response;
    expect(again.status).toBe(403);
    expect(await adminCount()).toBe(1);
    expect(await (await new Client(app.url, { "x-forwarded-for": uniqueIp() }).get("/signup")).text()).not.toMatch(/name="setupToken"/);
  });

  it("while none exists, is made by a sign-up from this machine (but not one relayed by a proxy on it)", async () => {
    await sql`update users set role = 'user'`; // e.g. revoked with npm run admin -- revoke
    const relayed = apiSignUp({}, "127.0.0.1");
    expect((await relayed.response).status).toBe(201);
    expect(await roleOf(relayed.client)).toBe("user");
    expect(await (await new Client(app.url).get("/signup")).text(), "no token field on this machine").not.toMatch(/name="setupToken"/);
    const local = apiSignUp({});
    expect((await local.response).status).toBe(201);
    expect(await roleOf(local.client)).toBe("admin");
    const next = apiSignUp({});
    expect((await next.response).status).toBe(201);
    expect(await roleOf(next.client), "only the first one").toBe("user");
  });
});

describe("sign-ups per address", () => {
  it(`creates at most ${SIGNUPS_PER_HOUR} accounts an hour from one address, even in parallel; then 429 with Retry-After, on the API and the form`, async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 12 }, () => apiSignUp({}, ip).response));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(SIGNUPS_PER_HOUR).fill(201), ...Array<number>(12 - SIGNUPS_PER_HOUR).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await refused.json()).detail).toMatch(/Too many new accounts from your address\. Try again in \d+ minutes?\./);

    // The page's form, posted without JavaScript, shows the same message.
    const form = formSignUp({}, ip);
    const page = await form.response;
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toBeTruthy();
    expect(await page.text()).toMatch(/Too many new accounts from your address/);
    expect(await sql`select 1 from users where username = ${form.username}`).toHaveLength(0);

    // Another address is not affected.
    expect((await apiSignUp({}, uniqueIp()).response).status).toBe(201);
  });

  it("counts only accounts made: a taken username does not use up the address's sign-ups", async () => {
    const ip = uniqueIp();
    const { response } = apiSignUp({ username: uniqueUsername("taken") }, uniqueIp());
    const taken = ((await (await response).json()) as { username: string }).username;
    for (let i = 0; i < SIGNUPS_PER_HOUR + 1; i++) expect((await apiSignUp({ username: taken }, ip).response).status).toBe(409);
    expect((await apiSignUp({}, ip).response).status).toBe(201);
  });
});
