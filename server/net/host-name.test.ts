import { describe, expect, it } from "vitest";
import { hostNameOf, isIpHostName, isLoopbackAddress, isLoopbackHostName } from "./host-name";

describe("hostNameOf", () => {
  it.each([
    ["Studio.Example.com:443", "studio.example.com"],
    ["attacker.example:3000", "attacker.example"],
    ["localhost.", "localhost"],
    ["[::1]:3000", "[::1]"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1:80", "127.0.0.1"],
    ["bücher.example", "xn--bcher-kva.example"],
  ])("reads %s as %s", (text, name) => {
    expect(hostNameOf(text)).toBe(name);
  });

  it.each(["", "a b", "evil.example/path", "user@evil.example", "[::1"])("finds no host in %j", (text) => {
    expect(hostNameOf(text)).toBeUndefined();
  });
});

describe("loopback and IP names", () => {
  it("knows loopback names and addresses in every spelling", () => {
    for (const name of ["localhost", "127.0.0.1", "127.8.9.10", "[::1]", "[::ffff:7f00:1]"]) expect(isLoopbackHostName(name), name).toBe(true);
    for (const name of ["evil.localhost", "localhost.example", "10.0.0.1", "[::2]"]) expect(isLoopbackHostName(name), name).toBe(false);
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackAddress(address), address).toBe(true);
    expect(isLoopbackAddress("::ffff:10.0.0.1")).toBe(false);
  });

  it("tells IP addresses from DNS names", () => {
    expect(isIpHostName("10.1.2.3")).toBe(true);
    expect(isIpHostName("[2001:db8::1]")).toBe(true);
    expect(isIpHostName("studio.example.com")).toBe(false);
  });
});

describe("hostNameOf, remembered", () => {
  it("answers a text the same the second time, a non-host too, and past its memory's size", () => {
    const texts = ["Studio.Example.com:443", "[::1]:3000", "localhost.", "a b", "", "2130706433"];
    const first = texts.map(hostNameOf);
    expect(first).toEqual(["studio.example.com", "[::1]", "localhost", undefined, undefined, "127.0.0.1"]);
    for (let i = 0; i < 1500; i++) expect(hostNameOf(`host${i}.example:80`)).toBe(`host${i}.example`);
    expect(texts.map(hostNameOf)).toEqual(first);
    expect(texts.map(hostNameOf)).toEqual(first);
  });
});
