// Camera targets: private LAN by default; loopback, link-local and metadata only when a listed network names them.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { AddressPolicy } from "./address-policy";

const policy = (networks?: string) => new AddressPolicy(loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"), SESSION_SECRET: "x", ...(networks ? { PTZ_ALLOWED_NETWORKS: networks } : {}) }).ptz.allowedNetworks);

describe("AddressPolicy", () => {
  it("allows private LAN ranges by default and refuses everything else", () => {
    const p = policy();
    for (const ok of ["192.168.1.50", "10.0.0.9", "172.16.4.4", "172.31.255.1", "fd12::1"]) expect(p.isAllowed(ok), ok).toBe(true);
    for (const bad of ["127.0.0.1", "::1", "169.254.169.254", "fe80::1", "8.8.8.8", "172.32.0.1", "0.0.0.0", "224.0.0.1", "::ffff:127.0.0.1", "fd00:ec2::254", "not-an-ip"]) expect(p.isAllowed(bad), bad).toBe(false);
    expect(p.isAllowed("::ffff:192.168.1.5")).toBe(true);
  });

  it("opens loopback only when a listed network lies inside it, never through a catch-all", () => {
    expect(policy("127.0.0.0/8").isAllowed("127.0.0.1")).toBe(true);
    expect(policy("127.0.0.0/8").isAllowed("192.168.1.1")).toBe(false);
    const everything = policy("0.0.0.0/0,::/0");
    expect(everything.isAllowed("8.8.8.8")).toBe(true);
    for (const bad of ["127.0.0.1", "169.254.169.254", "::1", "0.0.0.0"]) expect(everything.isAllowed(bad), bad).toBe(false);
    expect(policy("169.254.169.254/32").isAllowed("169.254.169.254")).toBe(true);
  });

  it("resolves names once and refuses what they point at when not allowed", async () => {
    await expect(policy("192.168.0.0/16").resolve("localhost")).rejects.toMatchObject({ kind: "refused" });
    expect(await policy("127.0.0.0/8").resolve("127.0.0.1")).toBe("127.0.0.1");
  });

  it("rejects a malformed network in the configuration", () => {
    expect(() => policy("10.0.0.0/33")).toThrow(/PTZ_ALLOWED_NETWORKS/);
    expect(() => policy("camera-lan")).toThrow(/PTZ_ALLOWED_NETWORKS/);
  });
});
