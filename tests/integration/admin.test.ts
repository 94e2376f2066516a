// Roles, the admin API and feature requests over HTTP.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, signInAdmin, signUpUser } from "../support/client";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
let admin: { client: Client };

beforeAll(async () => {
  admin = { client: await signInAdmin() };
});
afterAll(() => sql.end());

describe("admin access", () => {
  it("answers 401 to anonymous callers and 403 to non-admins on every admin API", async () => {
    const user = await signUpUser();
    for (const path of ["/api/admin/users", "/api/admin/feature-requests"]) {
      expect((await new Client().get(path)).status).toBe(401);
      const forbidden = await user.client.get(path);
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get("content-type")).toContain("application/problem+json");
    }
  });

  it("redirects anonymous visitors of /admin and /studio to /login, and answers 403 to a non-admin", async () => {
    for (const path of ["/admin", "/studio"]) {
      const response = await new Client().get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const user = await signUpUser();
    const page = await user.client.get("/admin");
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("You don&#x27;t have access to this page");
  });

  it("lists users with their key and webhook state for an admin", async () => {
    const user = await signUpUser();
    await sql`insert into webhook_settings (user_id, webhook_url, webhook_enabled) values (${user.id}, 'https://hooks.example.invalid/x', true)`;
    const response = await admin.client.get("/api/admin/users");
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("x-total-count"))).toBeGreaterThanOrEqual(2);
    const users = (await response.json()) as Array<Record<string, unknown>>;
    const listed = users.find((u) => u.id === user.id);
    expect(listed).toEqual({
      id: user.id,
      username: user.username,
      role: "user",
      hasMoondreamApiKey: false,
      hasWebhook: true,
      webhookEnabled: true,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(users)).not.toMatch(/password|argon2/);
  });

  it("pages the users list 100 at a time and validates the page number", async () => {
    const bad = await admin.client.get("/api/admin/users?page=0");
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.page).toBeDefined();
    const far = await admin.client.get("/api/admin/users?page=999");
    expect(await far.json()).toEqual([]);
  });
});

describe("feature requests", () => {
  it("stores a request for a signed-in user and shows it to admins with its submitter", async () => {
    const user = await signUpUser();
    const response = await user.client.post("/api/feature-requests", { title: "  PTZ presets  ", description: "Recall by number" });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ userId: user.id, title: "PTZ presets", description: "Recall by number" });
    const list = (await (await admin.client.get("/api/admin/feature-requests")).json()) as Array<{ id: string; userId: string }>;
    expect(list.find((r) => r.id === created.id)).toMatchObject({ userId: user.id, title: "PTZ presets" });
    const page = await (await admin.client.get("/admin?tab=requests")).text();
    expect(page).toContain("PTZ presets");
    expect(page).toContain(user.username);
  });

  it.each([
    [{ title: "   ", description: "x" }, "title", "Title is required"],
    [{ title: "x", description: "" }, "description", "Description is required"],
    [{ title: "x" }, "description", "Description is required"],
  ])("rejects %j naming %s", async (body, field, message) => {
    const user = await signUpUser();
    const response = await user.client.post("/api/feature-requests", body);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[field]).toContain(message);
  });

  it("answers 401 to anonymous callers and 405 to the wrong method", async () => {
    expect((await new Client().post("/api/feature-requests", { title: "a", description: "b" })).status).toBe(401);
    const user = await signUpUser();
    const wrong = await user.client.request("DELETE", "/api/feature-requests");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
  });
});
