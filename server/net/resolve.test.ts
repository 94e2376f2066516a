import dns from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemLookup } from "./resolve";

afterEach(() => vi.restoreAllMocks());

describe("systemLookup", () => {
  it("answers the special-use 'invalid' names 'not found' without asking DNS (RFC 6761 §6.4)", async () => {
    const lookup = vi.spyOn(dns.promises, "lookup");
    for (const name of ["hooks.example.invalid", "INVALID", "a.b.invalid."]) {
      await expect(systemLookup(name)).rejects.toMatchObject({ code: "ENOTFOUND", hostname: name });
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it("asks the system resolver for any other name", async () => {
    const lookup = vi.spyOn(dns.promises, "lookup").mockResolvedValue([{ address: "127.0.0.1", family: 4 }] as never);
    expect(await systemLookup("invalid.example.test")).toEqual([{ address: "127.0.0.1", family: 4 }]);
    expect(lookup).toHaveBeenCalledWith("invalid.example.test", { all: true, verbatim: true });
  });
});
