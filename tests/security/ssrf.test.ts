// SSRF refused at the door. Webhook URLs that would reach the server's own networks (loopback, private, link-local,
// cloud metadata, any IPv6 form carrying such an IPv4 address) or carry credentials are refused when saved: 422
// problem JSON with the reason under the field, nothing stored. A URL stored anyway (saved under an older policy,
// or a name whose DNS answer changed) is still refused at delivery. PTZ targets outside the camera ports are
// refused before any connection.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser(); // the shared app: the default webhook policy, no allow-list
});

const notReachable = (reason: string) => `This address is not reachable from the internet: ${reason}`;
const REFUSED: Array<[url: string, message: string]> = [
  ["http://169.254.169.254/latest/meta-data/", notReachable("169.254.169.254 is a cloud metadata address")],
  ["http://2852039166/latest/meta-data/", notReachable("169.254.169.254 is a cloud metadata address")],
  ["http://[fd00:ec2::254]/", notReachable("fd00:ec2::254 is a cloud metadata address")],
  ["http://127.0.0.1:9/hook", notReachable("127.0.0.1 is a loopback address")],
  ["http://2130706433:9/", notReachable("127.0.0.1 is a loopback address")],
  ["http://0x7f.1/", notReachable("127.0.0.1 is a loopback address")],
  ["http://0177.0.0.1./", notReachable("127.0.0.1 is a loopback address")],
  ["http://[::1]:9/", notReachable("::1 is a loopback address")],
  ["http://localhost:9/", notReachable("localhost resolves to 127.0.0.1, which is a loopback address")],
  ["http://hooks.localhost/", notReachable("hooks.localhost resolves to 127.0.0.1, which is a loopback address")],
  ["http://[::127.0.0.1]/", notReachable("::7f00:1 embeds 127.0.0.1, a loopback address")],
  ["http://[::ffff:127.0.0.1]/", notReachable("::ffff:7f00:1 embeds 127.0.0.1, a loopback address")],
  ["http://[64:ff9b::169.254.169.254]/", notReachable("64:ff9b::a9fe:a9fe embeds 169.254.169.254, a cloud metadata address")],
  ["http://[2002:a00:1::1]/", notReachable("2002:a00:1::1 embeds 10.0.0.1, a private network address")],
  ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", notReachable("2001:0:4136:e378:8000:63bf:80ff:fffe embeds 127.0.0.1, a loopback address")],
  ["http://10.0.0.1/", notReachable("10.0.0.1 is a private network address")],
  ["https://192.168.1.1/hook", notReachable("192.168.1.1 is a private network address")],
  ["http://[fd12::1]/", notReachable("fd12::1 is a private network address")],
  ["http://169.254.1.1/", notReachable("169.254.1.1 is a link-local address")],
  ["http://[fe80::1]/", notReachable("fe80::1 is a link-local address")],
  ["http://100.64.0.1/", notReachable("100.64.0.1 is a carrier-grade NAT address")],
  ["http://0.0.0.0:3000/", notReachable("0.0.0.0 is an unspecified address")],
  ["http://224.0.0.1/", notReachable("224.0.0.1 is a multicast address")],
  ["https://user:secret@hooks.example.invalid/in", "URLs with a user name or password are not allowed"],
];

describe("webhook URLs are judged when saved", () => {
  it.each(REFUSED)("refuses %s with 422 and the reason under webhookUrl", async (url, message) => {
    const response = await user.client.post("/api/webhooks/settings", { webhookUrl: url, webhookEnabled: true, webhookEventType: "simple" });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 422, detail: message, errors: { webhookUrl: [message] } });
    expect(await (await user.client.get("/api/webhooks/settings")).json()).toMatchObject({ webhookUrl: null, webhookEnabled: false });
  });

  it("still saves a public address", async () => {
    const response = await user.client.post("/api/webhooks/settings", { webhookUrl: "https://93.184.216.34/hook", webhookEnabled: false, webhookEventType: "simple" });
    expect(response.status).toBe(200);
    await user.client.post("/api/webhooks/settings", { webhookUrl: null, webhookEnabled: false, webhookEventType: "simple" });
  });
});

describe("delivery checks again", () => {
  it.each([
    ["http://127.0.0.1:9/", "Refused: 127.0.0.1 is a loopback address"],
    ["http://[::127.0.0.1]:9/", "Refused: ::7f00:1 embeds 127.0.0.1, a loopback address"],
    ["http://[64:ff9b::7f00:1]:9/", "Refused: 64:ff9b::7f00:1 embeds 127.0.0.1, a loopback address"],
    ["http://localhost:9/", "Refused: localhost resolves to 127.0.0.1, which is a loopback address"],
  ])("refuses a stored %s without connecting", async (url, message) => {
    const other = await signUpUser();
    await sql`insert into webhook_settings (user_id, webhook_url, webhook_enabled) values (${other.id}, ${url}, true)`;
    const result = await (await other.client.post("/api/webhooks/test")).json();
    expect(result).toMatchObject({ success: false, receiverStatus: null, message });
  });
});

describe("PTZ camera ports", () => {
  it("refuses a port outside PTZ_ALLOWED_PORTS with 403 before connecting", async () => {
    for (const protocol of ["visca", "onvif", "http-cgi", undefined]) {
      const response = await user.client.post("/api/ptz/connect", { connection: { ip: "127.0.0.1", port: 22, protocol } });
      expect(response.status).toBe(403);
      expect((await response.json()).detail).toMatch(/^Port 22 is not a camera port this server connects to \(.*PTZ_ALLOWED_PORTS\)$/);
    }
  });
});
