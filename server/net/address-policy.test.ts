import { describe, expect, it } from "vitest";
import { assertCidrList, checkAddress } from "./address-policy";

const publicOnly = { allow: [] };

describe("checkAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["fe80::1", "link-local"],
    ["fc00::1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["64:ff9b::7f00:1", "IPv4-embedded"],
  ])("refuses %s (%s) by default", (address, kind) => {
    const verdict = checkAddress(address, publicOnly);
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toContain(kind);
  });

  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"])("allows the public address %s", (address) => {
    expect(checkAddress(address, publicOnly).allowed).toBe(true);
  });

  it("lets an operator allow-list through, including the mapped form of an allowed IPv4", () => {
    const policy = { allow: ["127.0.0.0/8", "::1"] };
    expect(checkAddress("127.0.0.1", policy).allowed).toBe(true);
    expect(checkAddress("::ffff:127.0.0.1", policy).allowed).toBe(true);
    expect(checkAddress("::1", policy).allowed).toBe(true);
    expect(checkAddress("10.0.0.1", policy).allowed).toBe(false);
  });

  it("blocks listed public ranges, and with blockNonPublic off allows private ones (the camera default)", () => {
    expect(checkAddress("93.184.216.34", { allow: [], block: ["93.184.0.0/16"] }).allowed).toBe(false);
    const cameras = { allow: [], block: ["169.254.169.254/32"], blockNonPublic: false };
    expect(checkAddress("192.168.1.50", cameras).allowed).toBe(true);
    expect(checkAddress("169.254.169.254", cameras).allowed).toBe(false);
  });

  it("answers not-an-address for names and junk", () => {
    expect(checkAddress("example.com", publicOnly)).toMatchObject({ allowed: false, reason: "not an IP address" });
  });

  it("validates CIDR lists", () => {
    expect(() => assertCidrList(["10.0.0.0/8", "::1", "::ffff:127.0.0.1/128"])).not.toThrow();
    expect(() => assertCidrList(["10.0.0.0/33"])).toThrow();
    expect(() => assertCidrList(["localhost"])).toThrow();
  });
});
