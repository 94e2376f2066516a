import { describe, expect, it } from "vitest";
import { addressKey } from "./throttle";

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:3::1", "2001:db8:1:3::/64"],
    ["::1", "0:0:0:0::/64"],
    [null, "unknown"],
    ["not an address", "not an address"],
  ])("counts %s as %s", (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
