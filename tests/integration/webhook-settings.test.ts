// Webhook settings: defaults, validation of the URL, round trip.
import { describe, expect, it } from "vitest";
import { Client, signUpUser } from "../support/client";

describe("webhook settings", () => {
  it("starts empty, saves a valid setting and reads it back", async () => {
    const { client } = await signUpUser();
    expect(await (await client.get("/api/webhooks/settings")).json()).toEqual({ webhookUrl: null, webhookEnabled: false, webhookEventType: "simple" });
    const saved = await client.post("/api/webhooks/settings", { webhookUrl: " https://hooks.example.invalid/framewise ", webhookEnabled: true, webhookEventType: "detailed" });
    expect(saved.status).toBe(200);
    expect(await (await client.get("/api/webhooks/settings")).json()).toEqual({
      webhookUrl: "https://hooks.example.invalid/framewise",
      webhookEnabled: true,
      webhookEventType: "detailed",
    });
    await client.post("/api/webhooks/settings", { webhookUrl: null, webhookEnabled: false, webhookEventType: "simple" });
    expect((await (await client.get("/api/webhooks/settings")).json()).webhookUrl).toBeNull();
  });

  it.each([
    [{ webhookUrl: "ftp://example.com", webhookEnabled: true, webhookEventType: "simple" }, "webhookUrl"],
    [{ webhookUrl: "javascript:alert(1)", webhookEnabled: true, webhookEventType: "simple" }, "webhookUrl"],
    [{ webhookUrl: "https://x.example.invalid", webhookEnabled: "yes", webhookEventType: "simple" }, "webhookEnabled"],
    [{ webhookUrl: "https://x.example.invalid", webhookEnabled: true, webhookEventType: "verbose" }, "webhookEventType"],
  ])("rejects %j naming %s", async (body, field) => {
    const { client } = await signUpUser();
    const response = await client.post("/api/webhooks/settings", body);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[field]).toBeDefined();
  });

  it("answers 401 when anonymous", async () => {
    expect((await new Client().get("/api/webhooks/settings")).status).toBe(401);
  });
});
