import express from "express";
import { describe, expect, it } from "vitest";
import { rememberingTrust } from "./client-ip";

describe("rememberingTrust", () => {
  it("answers as express's compiled check does, for every address and hop, asking it once per pair", () => {
    for (const setting of ["loopback", "10.0.0.0/8, 127.0.0.1", "2"]) {
      // The check express compiles from TRUST_PROXY's setting, as the app has it.
      const compiled = express()
        .set("trust proxy", /^\d+$/.test(setting) ? Number(setting) : setting)
        .get("trust proxy fn") as (address: string, hop: number) => boolean;
      const byHops = (address: string, hop: number) => compiled(address, hop);
      let asked = 0;
      const remembered = rememberingTrust((address, hop) => (asked++, byHops(address, hop)));
      const cases: Array<[string, number]> = [
        ["127.0.0.1", 0],
        ["::1", 0],
        ["10.1.2.3", 1],
        ["203.0.113.9", 0],
        ["203.0.113.9", 3],
        ["not an address", 0],
        ["::ffff:127.0.0.1", 2],
      ];
      for (const round of [1, 2]) {
        for (const [address, hop] of cases) expect(remembered(address, hop), `${setting}: ${address} at hop ${hop}`).toBe(byHops(address, hop));
        expect(asked, `round ${round}`).toBe(cases.length);
      }
    }
  });

  it("keeps a bounded memory of the addresses clients send", () => {
    let asked = 0;
    const remembered = rememberingTrust(() => (asked++, false));
    for (let i = 0; i < 10_000; i++) remembered(`198.51.${i >> 8}.${i & 255}`, 1);
    remembered("198.51.0.0", 1); // forgotten when the memory started afresh
    expect(asked).toBe(10_001);
  });
});
