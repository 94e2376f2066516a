// Webhook URLs at save time: names are resolved and judged like literals, an operator's lists apply, and a name
// that does not resolve now is left to delivery (which checks the address it connects to).
import { describe, expect, it } from "vitest";
import { parseNetworks, publicOnly } from "../net/address-policy";
import type { LookupAll } from "../net/resolve";
import { webhookUrlProblem } from "./url-check";

const dns: LookupAll = async (name) => {
  const table: Record<string, string[]> = {
    "internal.example.test": ["10.0.0.5"],
    "rebind.example.test": ["93.184.216.34", "169.254.169.254"],
    "hooks.example.test": ["93.184.216.34"],
  };
  const answers = table[name];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return answers.map((address) => ({ address, family: 4 }));
};

describe("webhookUrlProblem", () => {
  it("resolves names and refuses what they point at", async () => {
    expect(await webhookUrlProblem("https://internal.example.test/hook", publicOnly(), dns)).toBe(
      "This address is not reachable from the internet: internal.example.test resolves to 10.0.0.5, which is a private network address",
    );
    expect(await webhookUrlProblem("https://rebind.example.test/hook", publicOnly(), dns)).toBe(
      "This address is not reachable from the internet: rebind.example.test resolves to 169.254.169.254, which is a cloud metadata address",
    );
    expect(await webhookUrlProblem("https://hooks.example.test/hook", publicOnly(), dns)).toBeNull();
  });

  it("leaves a name that does not resolve now to delivery", async () => {
    expect(await webhookUrlProblem("https://not-yet.example.test/hook", publicOnly(), dns)).toBeNull();
  });

  it("applies WEBHOOK_ALLOWED_CIDRS and WEBHOOK_BLOCKED_CIDRS", async () => {
    expect(await webhookUrlProblem("http://127.0.0.1:8080/hook", publicOnly(parseNetworks("127.0.0.0/8")), dns)).toBeNull();
    expect(await webhookUrlProblem("https://hooks.example.test/hook", publicOnly([], parseNetworks("93.184.216.0/24")), dns)).toBe(
      "This address is blocked on this server: hooks.example.test resolves to 93.184.216.34, which is an address the operator has blocked",
    );
  });

  it("refuses credentials in the URL whatever the host", async () => {
    expect(await webhookUrlProblem("https://user:pw@hooks.example.test/hook", publicOnly(), dns)).toBe("URLs with a user name or password are not allowed");
  });
});
