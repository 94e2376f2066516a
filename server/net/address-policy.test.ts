// Every spelling of every kind of address, through the one entry point that takes what a user typed
// (resolveAllowed), under both profiles: public-only (webhooks) and LAN-allowed (cameras), with the camera
// networks of a default install, of the tests (loopback) and a catch-all. Literals never reach DNS.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { checkAddress, lanAllowed, parseNetworks, publicOnly } from "./address-policy";
import { AddressRefused, HostUnresolved, resolveAllowed, type LookupAll } from "./resolve";

const DEFAULT_CAMERA_NETWORKS = "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7";
const policies = {
  public: publicOnly(),
  lan: lanAllowed(parseNetworks(DEFAULT_CAMERA_NETWORKS)),
  lanLoopback: lanAllowed(parseNetworks("127.0.0.0/8")),
  lanEverything: lanAllowed(parseNetworks("0.0.0.0/0,::/0")),
};

const DNS: Record<string, string[]> = {
  "mixed.example.test": ["93.184.216.34", "10.0.0.1"],
  "cam.example.test": ["192.168.1.77"],
  "xn--bcher-kva.example": ["93.184.216.34"],
  "nat64.example.test": ["64:ff9b::7f00:1"],
};
const asked: string[] = [];
const fakeDns: LookupAll = async (name) => {
  asked.push(name);
  const answers = DNS[name.replace(/\.$/, "")];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** "=x": allowed, connecting to x. Otherwise a piece of the refusal's reason. */
type Expect = string;
const LOOP: Expect[] = ["127.0.0.1 is a loopback address", "127.0.0.1 is a loopback address", "=127.0.0.1", "127.0.0.1 is a loopback address"];
const embedsLoop = (v6: string): Expect[] => [
  `${v6} embeds 127.0.0.1, a loopback address`,
  "embeds 127.0.0.1, a loopback address",
  "=127.0.0.1",
  "embeds 127.0.0.1, a loopback address",
];
const META = (shown: string): Expect[] => Array(4).fill(`${shown} is a cloud metadata address`);
const PRIVATE_10: Expect[] = ["10.0.0.1 is a private network address", "=10.0.0.1", "10.0.0.1 is an address outside the allowed networks", "=10.0.0.1"];
const PUBLIC_V4: Expect[] = ["=93.184.216.34", "outside the allowed networks", "outside the allowed networks", "=93.184.216.34"];
const all = (reason: string): Expect[] => Array(4).fill(reason);
const LOCALHOST: Expect[] = [
  "resolves to 127.0.0.1, which is a loopback address",
  "resolves to 127.0.0.1, which is a loopback address",
  "=127.0.0.1",
  "resolves to 127.0.0.1, which is a loopback address",
];

//                                           public-only, LAN default, LAN 127/8 (tests), LAN 0/0 + ::/0
const TABLE: Array<[input: string, expected: Expect[]]> = [
  // IPv4 loopback, every spelling a URL parser or inet_aton accepts
  ["127.0.0.1", LOOP],
  ["2130706433", LOOP], // decimal
  ["0177.0.0.1", LOOP], // octal
  ["0x7f.1", LOOP], // hex, short form
  ["0x7f000001", LOOP],
  ["127.1", LOOP], // short form
  ["127.0.0.01", LOOP],
  ["127.0.0.1.", LOOP], // trailing dot
  ["１２７．０．０．１", LOOP], // full-width digits and dots (IDNA maps them)
  // IPv6 loopback, bracketed or not, and every IPv6 form that carries 127.0.0.1
  ["::1", all("::1 is a loopback address")],
  ["[::1]", all("::1 is a loopback address")],
  ["[0:0:0:0:0:0:0:1]", all("::1 is a loopback address")],
  ["[::ffff:127.0.0.1]", embedsLoop("::ffff:7f00:1")], // IPv4-mapped
  ["::ffff:7f00:1", embedsLoop("::ffff:7f00:1")],
  ["[::127.0.0.1]", embedsLoop("::7f00:1")], // IPv4-compatible ::/96
  ["::ffff:0:127.0.0.1", embedsLoop("::ffff:0:7f00:1")], // IPv4-translated
  [
    "64:ff9b::127.0.0.1",
    ["64:ff9b::7f00:1 embeds 127.0.0.1, a loopback address", "embeds 127.0.0.1", "64:ff9b::7f00:1 is an address outside the allowed networks", "embeds 127.0.0.1"],
  ], // NAT64
  ["2002:7f00:1::1", ["2002:7f00:1::1 embeds 127.0.0.1, a loopback address", "embeds 127.0.0.1", "is an address outside the allowed networks", "embeds 127.0.0.1"]], // 6to4
  // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (80ff:fffe)
  [
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
    ["embeds 127.0.0.1, a loopback address", "embeds 65.54.227.120, an address outside the allowed networks", "embeds 65.54.227.120", "embeds 127.0.0.1"],
  ],
  ["2a00:1450::200:5efe:127.0.0.1", ["embeds 127.0.0.1, a loopback address", "embeds 127.0.0.1", "is an address outside the allowed networks", "embeds 127.0.0.1"]], // ISATAP
  // Names that mean loopback without asking DNS (RFC 6761), in any case, with a trailing dot, as IDN
  ["localhost", LOCALHOST],
  ["LOCALHOST.", LOCALHOST],
  ["ｌｏｃａｌｈｏｓｔ", LOCALHOST],
  ["camera.localhost", LOCALHOST],
  // Link-local with a zone id
  ["fe80::1%eth0", all("fe80::1 is a link-local address")],
  ["[fe80::1]", all("fe80::1 is a link-local address")],
  // Cloud metadata
  ["169.254.169.254", META("169.254.169.254")],
  ["2852039166", META("169.254.169.254")],
  ["0xa9fea9fe", META("169.254.169.254")],
  ["0251.0376.0251.0376", META("169.254.169.254")],
  ["[::ffff:169.254.169.254]", all("::ffff:a9fe:a9fe embeds 169.254.169.254, a cloud metadata address")],
  ["[::169.254.169.254]", all("embeds 169.254.169.254, a cloud metadata address")],
  ["64:ff9b::169.254.169.254", all("embeds 169.254.169.254, a cloud metadata address")],
  ["fd00:ec2::254", META("fd00:ec2::254")],
  ["100.100.100.200", META("100.100.100.200")],
  ["168.63.129.16", META("168.63.129.16")],
  // Private networks
  ["10.0.0.1", PRIVATE_10],
  ["012.1", PRIVATE_10],
  ["167772161", PRIVATE_10],
  ["3232235826", ["192.168.1.50 is a private network address", "=192.168.1.50", "outside the allowed networks", "=192.168.1.50"]],
  ["fd12::1", ["fd12::1 is a private network address", "=fd12::1", "outside the allowed networks", "=fd12::1"]],
  ["::ffff:192.168.1.50", ["embeds 192.168.1.50, a private network address", "=192.168.1.50", "embeds 192.168.1.50, an address outside the allowed networks", "=192.168.1.50"]],
  ["2002:c0a8:132::1", ["embeds 192.168.1.50, a private network address", "is an address outside the allowed networks", "embeds 192.168.1.50", "=2002:c0a8:132::1"]],
  // Public
  ["93.184.216.34", PUBLIC_V4],
  ["1572395042", PUBLIC_V4],
  ["::ffff:93.184.216.34", PUBLIC_V4.map((e) => (e.startsWith("=") ? e : "embeds 93.184.216.34"))],
  ["2606:2800:220:1::1", ["=2606:2800:220:1::1", "outside the allowed networks", "outside the allowed networks", "=2606:2800:220:1::1"]],
  ["64:ff9b::93.184.216.34", ["=64:ff9b::5db8:d822", "embeds 93.184.216.34", "embeds 93.184.216.34", "=64:ff9b::5db8:d822"]], // NAT64 of a public address
  ["2002:5db8:d822::1", ["=2002:5db8:d822::1", "embeds 93.184.216.34", "embeds 93.184.216.34", "=2002:5db8:d822::1"]],
  // Other ranges nobody may reach through a catch-all
  ["0.0.0.0", all("0.0.0.0 is an unspecified address")],
  ["0", all("0.0.0.0 is an unspecified address")],
  ["::", all(":: is an unspecified address")],
  ["100.64.0.1", all("100.64.0.1 is a carrier-grade NAT address")],
  ["224.0.0.1", all("224.0.0.1 is a multicast address")],
  ["255.255.255.255", all("255.255.255.255 is a broadcast address")],
  ["240.0.0.1", all("240.0.0.1 is a reserved address")],
  ["ff02::1", all("ff02::1 is a multicast address")],
  ["192.0.2.1", all("192.0.2.1 is a documentation address")],
  ["2001:db8::1", all("2001:db8::1 is a documentation address")],
  ["64:ff9b:1::1", all("64:ff9b:1::1 is a local NAT64 address")],
  ["100::1", all("100::1 is a discard-only address")],
  ["4000::1", all("4000::1 is a reserved address")],
  // Names: every DNS answer must pass; the connection goes to the checked answer
  [
    "mixed.example.test",
    [
      "mixed.example.test resolves to 10.0.0.1, which is a private network address",
      "resolves to 93.184.216.34, which is an address outside",
      "resolves to 93.184.216.34",
      "=93.184.216.34",
    ],
  ],
  ["cam.example.test", ["resolves to 192.168.1.77, which is a private network address", "=192.168.1.77", "resolves to 192.168.1.77, which is an address outside", "=192.168.1.77"]],
  ["CAM.Example.Test.", ["resolves to 192.168.1.77", "=192.168.1.77", "resolves to 192.168.1.77", "=192.168.1.77"]],
  ["bücher.example", ["=93.184.216.34", "outside", "outside", "=93.184.216.34"]], // IDN → xn--bcher-kva.example
  [
    "nat64.example.test",
    ["nat64.example.test resolves to 64:ff9b::7f00:1, which embeds 127.0.0.1", "which embeds 127.0.0.1", "64:ff9b::7f00:1, which is an address outside", "which embeds 127.0.0.1"],
  ],
  // Not a host at all
  ["127.0.0.1:22", all("is not a host name or IP address")],
  ["user@127.0.0.1", all("is not a host name or IP address")],
  ["127.0.0.1/x", all("is not a host name or IP address")],
];

const PROFILES = ["public", "lan", "lanLoopback", "lanEverything"] as const;

describe("one address policy, every spelling", () => {
  const rows = TABLE.flatMap(([input, expected]) => PROFILES.map((profile, i) => [input, profile, expected[i]!] as const));
  it.each(rows)("%s under %s → %s", async (input, profile, expected) => {
    const result = await resolveAllowed(input, policies[profile], fakeDns).then(
      (address) => `=${address}`,
      (error: unknown) => {
        if (!(error instanceof AddressRefused)) throw error;
        return error.reason;
      },
    );
    if (expected.startsWith("=")) expect(result).toBe(expected);
    else expect(result).toContain(expected);
  });

  it("never asks DNS about an address or a localhost name, whatever its spelling", async () => {
    asked.length = 0;
    for (const [input] of TABLE) await resolveAllowed(input, policies.public, fakeDns).catch(() => {});
    expect(new Set(asked)).toEqual(new Set(["mixed.example.test", "cam.example.test", "cam.example.test.", "xn--bcher-kva.example", "nat64.example.test"]));
  });

  it("reports a name without an address as unresolved, not as allowed", async () => {
    await expect(resolveAllowed("gone.example.test", policies.lan, fakeDns)).rejects.toBeInstanceOf(HostUnresolved);
  });
});

describe("operator lists", () => {
  it("lets a webhook allow-list through (the mapped form too), and a block-list refuse public addresses", () => {
    const loopback = publicOnly(parseNetworks("127.0.0.0/8,::1"));
    expect(checkAddress("127.0.0.1", loopback)).toEqual({ allowed: true, address: "127.0.0.1" });
    expect(checkAddress("::ffff:127.0.0.1", loopback)).toEqual({ allowed: true, address: "127.0.0.1" });
    expect(checkAddress("::1", loopback).allowed).toBe(true);
    expect(checkAddress("10.0.0.1", loopback).allowed).toBe(false);
    const blocked = publicOnly([], parseNetworks("93.184.0.0/16"));
    expect(checkAddress("93.184.216.34", blocked)).toMatchObject({ allowed: false, kind: "blocked", reason: "93.184.216.34 is an address the operator has blocked" });
    expect(checkAddress("::ffff:93.184.216.34", blocked)).toMatchObject({ allowed: false, kind: "blocked" });
  });

  it("opens a sensitive range only to a network listed inside it, never to a catch-all", () => {
    expect(checkAddress("169.254.169.254", lanAllowed(parseNetworks("169.254.169.254/32"))).allowed).toBe(true);
    expect(checkAddress("169.254.169.254", lanAllowed(parseNetworks("169.254.0.0/16"))).allowed).toBe(false);
    expect(checkAddress("169.254.10.1", lanAllowed(parseNetworks("169.254.0.0/16"))).allowed).toBe(true);
    expect(checkAddress("127.0.0.1", publicOnly(parseNetworks("0.0.0.0/0"))).allowed).toBe(false);
    expect(checkAddress("10.0.0.1", publicOnly(parseNetworks("0.0.0.0/0"))).allowed).toBe(true);
  });

  it("parses one syntax for every list and names the variable when an entry is wrong", () => {
    expect(parseNetworks(" 10.0.0.0/8, ::1 ,::ffff:127.0.0.0/104").map((n) => `${n.address.toString()}/${n.bits}`)).toEqual(["10.0.0.0/8", "::1/128", "127.0.0.0/8"]);
    for (const bad of ["10.0.0.0/33", "localhost", "0177.0.0.1", "10.0.0.0/8/8", "10.0.0.0/-1", "10.0.0.0/", "::1/129"])
      expect(() => parseNetworks(bad), bad).toThrow(/not an IP address or CIDR/);
    const base = { ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"), SESSION_SECRET: "x" };
    for (const name of ["PTZ_ALLOWED_NETWORKS", "WEBHOOK_ALLOWED_CIDRS", "WEBHOOK_BLOCKED_CIDRS"]) {
      expect(() => loadConfig({ ...base, [name]: "10.0.0.0/8,camera-lan" })).toThrow(new RegExp(`${name}: "camera-lan" is not`));
    }
    expect(() => loadConfig({ ...base, PTZ_ALLOWED_PORTS: "80,22-" })).toThrow(/PTZ_ALLOWED_PORTS: "22-" is not a port/);
    const config = loadConfig({ ...base, PTZ_ALLOWED_PORTS: "80, 8000-8100" });
    expect(config.ptz.allowedPorts).toEqual([
      { from: 80, to: 80 },
      { from: 8000, to: 8100 },
    ]);
    expect(loadConfig(base).ptz.allowedNetworks.map((n) => n.text)).toEqual(DEFAULT_CAMERA_NETWORKS.split(","));
  });
});
