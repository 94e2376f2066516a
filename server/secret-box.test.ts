import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptApiKey, encryptApiKey } from "./secret-box";

describe("API keys at rest", () => {
  const key = randomBytes(32);
  const userId = "4b7d8f0e-2a4c-4e6b-9d1f-0a1b2c3d4e5f";

  it("round-trips, with a fresh IV each time and no trace of the key in the ciphertext", () => {
    const apiKey = "md_live_0123456789abcdef";
    const a = encryptApiKey(apiKey, userId, key);
    const b = encryptApiKey(apiKey, userId, key);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain(apiKey);
    expect(Buffer.from(a.split(".")[2]!, "base64").toString("latin1")).not.toContain("md_live");
    expect(decryptApiKey(a, userId, key)).toBe(apiKey);
  });

  it("won't open with another encryption key, for another user, or when tampered with", () => {
    const sealed = encryptApiKey("secret-key", userId, key);
    expect(decryptApiKey(sealed, userId, randomBytes(32))).toBeNull();
    expect(decryptApiKey(sealed, "00000000-0000-4000-8000-000000000000", key)).toBeNull();
    const [iv, tag, data] = sealed.split(".");
    const flipped = Buffer.from(data!, "base64");
    flipped[0]! ^= 1;
    expect(decryptApiKey([iv, tag, flipped.toString("base64")].join("."), userId, key)).toBeNull();
    expect(decryptApiKey("garbage", userId, key)).toBeNull();
  });
});
