// The relay's request signatures: only this deployment's processes (one SESSION_SECRET) may open a camera's relay.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type * as RelayModule from "./relay";

let relay: typeof RelayModule;

beforeAll(async () => {
  // Set before the config is first read, so no secrets file is written and nothing is logged.
  process.env.LOG_LEVEL = "silent";
  process.env.SESSION_SECRET ??= "unit-test-session-secret";
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  relay = await import("./relay");
});

const PATH = "/cameras/00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000002/live";
const NOW = 1_800_000_000_000;

describe("relay request signatures", () => {
  it("accept a request signed for its path, until it expires", () => {
    const header = relay.signRelayRequest(PATH, NOW);
    expect(relay.verifyRelayRequest(PATH, header, NOW)).toBe(true);
    expect(relay.verifyRelayRequest(PATH, header, NOW + 59_000)).toBe(true);
    expect(relay.verifyRelayRequest(PATH, header, NOW + 61_000)).toBe(false);
  });

  it("refuse one signed for another camera, a changed expiry, another key, or none", () => {
    const header = relay.signRelayRequest(PATH, NOW);
    expect(relay.verifyRelayRequest(PATH.replace("0002/live", "0003/live"), header, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH.replace("/live", "/snapshot"), header, NOW)).toBe(false);
    const [expires, mac] = header.split(" ")[1]!.split(".");
    expect(relay.verifyRelayRequest(PATH, `FramewiseRelay ${Number(expires) + 1000}.${mac}`, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, `FramewiseRelay ${expires}.${randomBytes(32).toString("base64url")}`, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, undefined, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, "FramewiseRelay", NOW)).toBe(false);
  });

  it("refuse a signature valid far into the future (a leaked one must not last)", () => {
    const header = relay.signRelayRequest(PATH, NOW + 10 * 60_000);
    expect(relay.verifyRelayRequest(PATH, header, NOW)).toBe(false);
  });
});
